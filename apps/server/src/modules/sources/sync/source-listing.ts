import type { UploadFormat } from '../../ingestion/uploads/supported-formats';

/** A file a source holds now, with what tells whether it changed since the last sync without reading it. */
export interface ListedItem {
  /** Its path relative to the folder or repository root, `/`-separated. */
  key: string;
  /** A folder file's size and modification time, a Git blob id. */
  fingerprint: string;
  /** Its size in bytes, when known without reading it. */
  size: number | null;
  read(): Promise<Buffer>;
  /** The commit it was read at (Git), else null. */
  commit: string | null;
  /** Where a person sees it (a Git web URL), else null. */
  link: string | null;
  /** Process it even when its fingerprint is the one stored (a rename: its path, title and link change). */
  force?: boolean;
  /** Its document format when its key does not tell (a web page's content type). */
  format?: UploadFormat;
  /** The name its title falls back to when the file has none; absent: the key's last segment. */
  name?: string;
  /** A web page's validators and links (kept for the next sync's conditional request). */
  etag?: string | null;
  lastModified?: string | null;
  links?: string[] | null;
}

/** What a source holds now, as its reader sees it. */
export interface SourceListing {
  /** What this sync reaches (a Git commit); null for folders. */
  cursor: string | null;
  /**
   * `full`: `items` is everything the source holds, and an item not in it was removed. `changes`: `items`
   * are what changed since the last cursor, `deleted` what was removed, and every other item is unchanged.
   */
  mode: 'full' | 'changes';
  items: ListedItem[];
  deleted: string[];
  /** Paths that moved (Git renames); applied before `items`, which hold the new paths. */
  renamed: { from: string; to: string }[];
  /** Items that could not be read this time (a page answering 500): reported, and kept as they are. */
  failures?: { item: string; reason: string }[];
}

/** A sync that cannot go on (the folder is gone, git cannot fetch): it fails as a whole, changing nothing. */
export class SourceUnavailableError extends Error {}

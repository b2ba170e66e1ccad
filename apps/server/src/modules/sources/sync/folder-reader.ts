import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PathFilter } from '@lumina/shared';
import type { FolderSourceConfig } from '@lumina/shared';
import type { ListedItem, SourceListing } from './source-listing';
import { SourceUnavailableError } from './source-listing';
import { insideRoots, sourceFileFormat } from './source-paths';

/**
 * Lists a server folder: every regular file of a supported type under it that the globs take, with its
 * size and modification time as fingerprint. Symbolic links are not followed, and names starting with a
 * dot (.git, .cache, …) are skipped. The folder must lie inside one of the allowed roots.
 */
export async function listFolder(
  config: FolderSourceConfig,
  roots: readonly string[],
  maxItems: number,
): Promise<SourceListing> {
  const root = await insideRoots(config.path, roots);
  if (!root) {
    throw new SourceUnavailableError(
      `The folder ${config.path} does not exist or is not inside the allowed roots (SOURCE_FOLDER_ROOTS).`,
    );
  }
  const filter = new PathFilter(config.include, config.exclude);
  const items: ListedItem[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const key = prefix ? `${prefix}/${entry.name}` : entry.name;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        await walk(path, key);
      } else if (entry.isFile() && sourceFileFormat(key) && filter.accepts(key)) {
        const stats = await lstat(path);
        items.push({
          key,
          fingerprint: `${stats.size}:${Math.trunc(stats.mtimeMs)}`,
          size: stats.size,
          read: () => readFile(path),
          commit: null,
          link: null,
        });
        if (items.length > maxItems) {
          throw new SourceUnavailableError(
            `The folder holds more than ${maxItems} files to index (SOURCE_MAX_ITEMS); narrow it with include or exclude globs.`,
          );
        }
      }
    }
  };
  await walk(root, '');
  return { cursor: null, mode: 'full', items, deleted: [], renamed: [] };
}

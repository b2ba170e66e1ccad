import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { extname } from 'node:path';
import { UPLOAD_FORMATS } from '../../ingestion/uploads/supported-formats';
import type { UploadFormat } from '../../ingestion/uploads/supported-formats';

/**
 * The real path of `path` when it lies inside one of `roots` (symbolic links resolved on both sides),
 * else null. A path that does not exist is null too.
 */
export async function insideRoots(path: string, roots: readonly string[]): Promise<string | null> {
  if (!isAbsolute(path)) return null;
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return null;
  }
  for (const root of roots) {
    let realRoot: string;
    try {
      realRoot = await realpath(root);
    } catch {
      continue;
    }
    const rel = relative(realRoot, real);
    if (rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))) return real;
  }
  return null;
}

/** The document format of a source file, by its extension; undefined for files a source does not take. */
export function sourceFileFormat(path: string): UploadFormat | undefined {
  const extension = extname(path).toLowerCase();
  // Corpora (json, jsonl) are uploads of many documents, not one file of a folder or repository.
  return UPLOAD_FORMATS.find((format) => !format.corpus && format.extensions.includes(extension));
}

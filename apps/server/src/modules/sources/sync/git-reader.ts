import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PathFilter } from '@lumina/shared';
import type { GitSourceConfig } from '@lumina/shared';
import { GitCommandError, runGit } from './git-cli';
import type { ListedItem, SourceListing } from './source-listing';
import { SourceUnavailableError } from './source-listing';
import { insideRoots, sourceFileFormat } from './source-paths';

export interface GitReaderOptions {
  /** The git executable (SOURCE_GIT_COMMAND). */
  gitCommand: string;
  cacheDir: string;
  roots: readonly string[];
  timeoutMs: number;
  maxItems: number;
}

/** The ref the followed branch is fetched into, in the source's bare clone. */
const HEAD_REF = 'refs/lumina/head';

/**
 * Reads a Git repository with the git command line into a bare clone of its own (SOURCE_CACHE_DIR):
 * fetches the branch, then lists either the whole tree at the new head (the first sync, or when the last
 * synced commit is gone or some item still waits to be indexed) or only what changed since the last synced
 * commit (`git diff --raw -M`: added, modified, deleted and renamed paths with their blob ids).
 * Files are read by blob id. The blob id is each file's fingerprint.
 */
export async function listGit(
  sourceId: string,
  config: GitSourceConfig,
  lastCommit: string | null,
  needsFullListing: boolean,
  options: GitReaderOptions,
): Promise<SourceListing> {
  const url = await remoteOf(config.url, options.roots);
  const dir = join(options.cacheDir, `${sourceId}.git`);
  const git = (args: string[], maxBuffer?: number) =>
    runGit(args, { command: options.gitCommand, cwd: dir, timeoutMs: options.timeoutMs, maxBuffer });
  try {
    if (!(await exists(join(dir, 'HEAD')))) {
      await mkdir(dir, { recursive: true });
      await git(['init', '--bare', '--quiet']);
    }
    const branch = config.branch ?? 'main';
    await git(['fetch', '--quiet', '--no-tags', '--force', '--', url, `+refs/heads/${branch}:${HEAD_REF}`]);
  } catch (error) {
    if (error instanceof GitCommandError) throw new SourceUnavailableError(error.message);
    throw error;
  }
  const head = (await git(['rev-parse', '--verify', `${HEAD_REF}^{commit}`])).toString('utf8').trim();
  const filter = new PathFilter(config.include, config.exclude);
  const takes = (path: string) => Boolean(sourceFileFormat(path)) && filter.accepts(path);
  const item = (path: string, blob: string, size: number | null, force = false): ListedItem => ({
    key: path,
    fingerprint: blob,
    size,
    read: () => git(['cat-file', 'blob', blob]),
    commit: head,
    link: config.webUrl
      ? config.webUrl.replaceAll('{commit}', head).replaceAll('{path}', encodeURI(path))
      : null,
    force,
  });

  const known = lastCommit !== null && !needsFullListing && (await hasCommit(git, lastCommit));
  if (!known) {
    const tree = await git(['ls-tree', '-r', '-l', '-z', '--full-tree', head]);
    const items: ListedItem[] = [];
    for (const record of tree.toString('utf8').split('\0')) {
      if (!record) continue;
      // <mode> SP <type> SP <object> SP+ <size> TAB <path>
      const tab = record.indexOf('\t');
      const [mode, type, blob, size] = record.slice(0, tab).split(/ +/);
      const path = record.slice(tab + 1);
      if (type !== 'blob' || mode === '120000' || !takes(path)) continue;
      items.push(item(path, blob!, Number(size)));
      if (items.length > options.maxItems) throw tooMany(options.maxItems);
    }
    return { cursor: head, mode: 'full', items, deleted: [], renamed: [] };
  }

  const diff = await git(['diff', '--raw', '--no-abbrev', '-z', '-M', lastCommit, head]);
  const fields = diff.toString('utf8').split('\0');
  const items: ListedItem[] = [];
  const deleted: string[] = [];
  const renamed: { from: string; to: string }[] = [];
  for (let i = 0; i < fields.length;) {
    const meta = fields[i++];
    if (!meta) continue;
    // :<old mode> <new mode> <old blob> <new blob> <status>[score], then one path, or two (R, C)
    const [, newMode, , newBlob, status] = meta.slice(1).split(' ');
    const letter = status![0];
    const from = fields[i++]!;
    const to = letter === 'R' || letter === 'C' ? fields[i++]! : from;
    const symlink = newMode === '120000';
    if (letter === 'D') {
      if (takes(from)) deleted.push(from);
    } else if (letter === 'R') {
      if (takes(from) && takes(to) && !symlink) {
        renamed.push({ from, to });
        items.push(item(to, newBlob!, null, true));
      } else {
        if (takes(from)) deleted.push(from);
        if (takes(to) && !symlink) items.push(item(to, newBlob!, null));
      }
    } else if (takes(to)) {
      // A, C, M, T: a symbolic link (or a submodule) in place of a file removes the file.
      if (symlink || newMode === '160000') deleted.push(to);
      else items.push(item(to, newBlob!, null));
    }
  }
  return { cursor: head, mode: 'changes', items, deleted, renamed };
}

/** The URL to fetch: an https/ssh URL as given, a server path only inside the allowed roots. */
async function remoteOf(url: string, roots: readonly string[]): Promise<string> {
  if (/^(https?|ssh|git):\/\//i.test(url) || /^[\w.-]+@[\w.-]+:/.test(url)) return url;
  const local = await insideRoots(url, roots);
  if (!local) {
    throw new SourceUnavailableError(
      `The repository ${url} is neither an https/ssh URL nor a folder inside the allowed roots (SOURCE_FOLDER_ROOTS).`,
    );
  }
  return local;
}

async function hasCommit(git: (args: string[]) => Promise<Buffer>, commit: string): Promise<boolean> {
  try {
    await git(['cat-file', '-e', `${commit}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

function tooMany(max: number): SourceUnavailableError {
  return new SourceUnavailableError(
    `The repository holds more than ${max} files to index (SOURCE_MAX_ITEMS); narrow it with include or exclude globs.`,
  );
}

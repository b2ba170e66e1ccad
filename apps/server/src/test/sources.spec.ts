import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { documentDetailSchema, pageOf, sourceSchema, syncRunSchema } from '@lumina/shared';
import type { Source, SyncRun } from '@lumina/shared';
import { DataSource } from 'typeorm';
import type { CachedEmbedder } from '../providers/cached-embedder';
import { EMBEDDER } from '../providers/providers.module';
import type { Json } from './helpers/http';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { TEST_BACKEND } from './helpers/test-backend';
import { testEnv } from './helpers/test-env';

const ADMIN_KEY = 'sources-suite-admin-key-0123456789';

interface Reply {
  status: number;
  body: Json;
}

const GUIDE = `# Setup guide

Install the agent on every host with the package manager, then enrol it with the token from the console.

## Networking

The agent talks to the collector on port 4317 over TLS; open it in the host firewall before enrolling.
`;

const FAQ = `# Questions

## Where are the logs?

The agent writes its logs to /var/log/agent, rotated daily and kept for fourteen days.
`;

const RUNBOOK = `# Failover runbook

Promote the standby with pg_ctl promote, then point the application at the new primary.

## Afterwards

Rebuild the old primary as a standby from a fresh base backup before it rejoins the cluster.
`;

/**
 * Sources kept in sync: a server folder, a Git repository (made in the test) and a loopback website,
 * synced, changed and synced again through the HTTP API and the BullMQ worker, on the embedded
 * database or PostgreSQL.
 */
describe(`sources: a folder, a Git repository and a website kept in sync (${TEST_BACKEND})`, () => {
  const root = mkdtempSync(join(tmpdir(), 'lumina-sources-'));
  const outside = mkdtempSync(join(tmpdir(), 'lumina-outside-'));
  const folder = join(root, 'handbook');
  const repo = join(root, 'repo');
  let server: TestApp;
  let dataSource: DataSource;
  let embedder: CachedEmbedder;
  let userKey: string;

  const send = async (key: string, method: string, path: string, body?: unknown): Promise<Reply> => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  const admin = (method: string, path: string, body?: unknown) => send(ADMIN_KEY, method, path, body);

  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
      cwd: repo,
      encoding: 'utf8',
    }).trim();

  /** Syncs the source and waits for the run's report. */
  const sync = async (sourceId: string): Promise<SyncRun> => {
    const before = (await admin('GET', `/sources/${sourceId}/runs`)).body.total as number;
    const asked = await admin('POST', `/sources/${sourceId}/sync`);
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ sourceId, jobId: `sync-${sourceId}` });
    const until = Date.now() + 150_000;
    for (;;) {
      const runs = await admin('GET', `/sources/${sourceId}/runs`);
      const page = pageOf(syncRunSchema).parse(runs.body);
      if (page.total > before && page.items[0]!.status !== 'running') return page.items[0]!;
      if (Date.now() > until) throw new Error(`the sync of ${sourceId} did not end`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const counts = (run: SyncRun) => ({
    added: run.added,
    updated: run.updated,
    unchanged: run.unchanged,
    deleted: run.deleted,
    failed: run.failed,
  });
  const documentsOf = (
    sourceId: string,
  ): Promise<{ id: string; path: string; title: string; status: string; metadata: Json }[]> =>
    dataSource.query(
      `SELECT id, metadata->'source'->>'path' AS path, title, status, metadata FROM documents
       WHERE source_id = $1 ORDER BY 2`,
      [sourceId],
    );
  const chunksOf = (documentId: string): Promise<{ text: string; embedding: string }[]> =>
    dataSource.query(
      `SELECT text, embedding::text AS embedding FROM chunks WHERE document_id = $1 ORDER BY ordinal`,
      [documentId],
    );

  beforeAll(async () => {
    server = await startTestApp(
      testEnv({
        ADMIN_API_KEY: ADMIN_KEY,
        SOURCE_FOLDER_ROOTS: root,
        SOURCE_CACHE_DIR: join(root, '.cache'),
        UPLOAD_DIR: join(root, '.uploads'),
        UPLOAD_MAX_BYTES: '4096',
        CHUNK_MAX_CHARS: '200',
        CHUNK_OVERLAP_CHARS: '0',
        SOURCE_ALLOWED_HOSTS: '127.0.0.1',
      }),
    );
    dataSource = server.app.get(DataSource);
    embedder = server.app.get(EMBEDDER);
    const [{ id: defaultCollection }] = await dataSource.query(`SELECT default_collection_id() AS id`);
    const created = await admin('POST', '/auth/keys', {
      name: 'writer',
      role: 'user',
      grants: [{ collectionId: defaultCollection, access: 'write' }],
    });
    expect(created.status).toBe(201);
    userKey = created.body.key;
  });

  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('lets only admin keys manage sources, and refuses folders outside the allowed roots', async () => {
    mkdirSync(folder, { recursive: true });
    expect((await send(userKey, 'GET', '/sources')).status).toBe(403);
    const refused = await send(userKey, 'POST', '/sources', {
      name: 'Mine',
      config: { kind: 'folder', path: folder },
    });
    expect(refused.status).toBe(403);

    const escape = await admin('POST', '/sources', {
      name: 'Etc',
      config: { kind: 'folder', path: outside },
    });
    expect(escape.status).toBe(400);
    expect(escape.body.message).toMatch(/not inside the folders the server allows \(SOURCE_FOLDER_ROOTS\)/);
    const dotdot = await admin('POST', '/sources', {
      name: 'Up',
      config: { kind: 'folder', path: `${folder}/../../${outside.split('/').pop()}` },
    });
    expect(dotdot.status).toBe(400);
    const kind = await admin('POST', '/sources', { name: 'Web', config: { kind: 'ftp', path: folder } });
    expect(kind.status).toBe(400);
    expect(JSON.stringify(kind.body.message)).toMatch(/kind must be folder, git or website/);
    const glob = await admin('POST', '/sources', {
      name: 'Glob',
      config: { kind: 'folder', path: folder, include: ['*.{md'] },
    });
    expect(glob.status).toBe(400);
    expect(JSON.stringify(glob.body.message)).toMatch(
      /config.include\[0\]: the glob \\"\*\.\{md\\" has an unclosed \{/,
    );
    const gitOutside = await admin('POST', '/sources', {
      name: 'Repo',
      config: { kind: 'git', url: outside },
    });
    expect(gitOutside.status).toBe(400);

    const missing = await admin('GET', '/sources/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect((await admin('GET', '/sources/not-a-uuid')).status).toBe(400);
  });

  it('syncs a folder: adds, leaves unchanged files alone, updates, deletes, and reports each', async () => {
    write(join(folder, 'guide.md'), GUIDE);
    write(join(folder, 'ops/runbook.md'), RUNBOOK);
    write(join(folder, 'faq.txt'), FAQ.replace(/#+ /g, ''));
    write(join(folder, 'drafts/next.md'), '# Next\n\nNot ready.\n');
    write(join(folder, 'logo.png'), 'not a document');
    write(join(folder, 'empty.md'), '');
    write(join(folder, 'big.md'), `# Big\n\n${'word '.repeat(1000)}\n`);

    const created = await admin('POST', '/sources', {
      name: 'Handbook folder',
      config: { kind: 'folder', path: folder, exclude: ['drafts/**'] },
    });
    expect(created.status).toBe(201);
    const source: Source = sourceSchema.parse(created.body);
    expect(source).toMatchObject({ kind: 'folder', state: 'idle', itemCount: 0, lastRun: null });

    const first = await sync(source.id);
    expect(first.status).toBe('succeeded');
    expect(counts(first)).toEqual({ added: 3, updated: 0, unchanged: 0, deleted: 0, failed: 2 });
    expect(first.failures.map((failure) => failure.item).sort()).toEqual(['big.md', 'empty.md']);
    expect(first.failures.find((f) => f.item === 'big.md')!.reason).toMatch(
      /larger than 4 KB \(UPLOAD_MAX_BYTES\)/,
    );
    expect(first.durationMs).toBeGreaterThanOrEqual(0);
    expect(embedder.stats.computed).toBeGreaterThan(0);

    let documents = await documentsOf(source.id);
    expect(documents.map((d) => [d.path, d.status])).toEqual([
      ['faq.txt', 'indexed'],
      ['guide.md', 'indexed'],
      ['ops/runbook.md', 'indexed'],
    ]);
    const guide = documents.find((d) => d.path === 'guide.md')!;
    expect(guide.title).toBe('Setup guide');
    expect(guide.metadata).toMatchObject({
      format: 'md',
      source: { id: source.id, kind: 'folder', path: 'guide.md' },
    });
    const view = await admin('GET', `/documents/${guide.id}`);
    expect(documentDetailSchema.parse(view.body).origin).toEqual({
      sourceId: source.id,
      kind: 'folder',
      path: 'guide.md',
      commit: null,
      url: null,
    });
    const guideChunks = await chunksOf(guide.id);
    expect(guideChunks.length).toBeGreaterThan(1);
    expect(guideChunks.every((chunk) => chunk.embedding !== null)).toBe(true);

    // Nothing changed: nothing is parsed or embedded, and the failed files are not tried again.
    const computed = embedder.stats.computed;
    const second = await sync(source.id);
    expect(counts(second)).toEqual({ added: 0, updated: 0, unchanged: 3, deleted: 0, failed: 2 });
    expect(embedder.stats.computed - computed).toBe(0);

    // A file touched but not changed, one changed, one removed, one fixed.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(folder, 'ops/runbook.md'), later, later);
    write(
      join(folder, 'guide.md'),
      `${GUIDE}\n## Upgrades\n\nUpgrade the agent in place; it restarts itself within a minute.\n`,
    );
    rmSync(join(folder, 'faq.txt'));
    write(join(folder, 'empty.md'), '# Empty no more\n\nIt holds a sentence now.\n');
    const before = embedder.stats.computed;
    const third = await sync(source.id);
    expect(counts(third)).toEqual({ added: 1, updated: 1, unchanged: 1, deleted: 1, failed: 1 });

    documents = await documentsOf(source.id);
    expect(documents.map((d) => d.path)).toEqual(['empty.md', 'guide.md', 'ops/runbook.md']);
    // The changed guide is the same document; the passages it kept kept their vectors, and only the new
    // passage (and the new file's) were embedded.
    expect(documents.find((d) => d.path === 'guide.md')!.id).toBe(guide.id);
    const updatedChunks = await chunksOf(guide.id);
    for (const chunk of guideChunks) {
      expect(updatedChunks.find((c) => c.text === chunk.text)?.embedding).toBe(chunk.embedding);
    }
    const fresh = updatedChunks.filter((c) => !guideChunks.some((old) => old.text === c.text)).length;
    expect(fresh).toBeGreaterThan(0);
    const emptyChunks = (await chunksOf(documents.find((d) => d.path === 'empty.md')!.id)).length;
    expect(embedder.stats.computed - before).toBeGreaterThan(0);
    expect(embedder.stats.computed - before).toBeLessThanOrEqual(fresh + emptyChunks);
    // The deleted file's document and chunks are gone.
    const [{ count }] = await dataSource.query(
      `SELECT count(*)::int AS count FROM chunks c JOIN documents d ON d.id = c.document_id
       WHERE d.source_id = $1 AND d.metadata->'source'->>'path' = 'faq.txt'`,
      [source.id],
    );
    expect(count).toBe(0);

    const shown = sourceSchema.parse((await admin('GET', `/sources/${source.id}`)).body);
    expect(shown).toMatchObject({
      state: 'idle',
      itemCount: 4,
      lastRun: { id: third.id, status: 'succeeded' },
    });
  }, 600_000);

  it('reruns a sync that was killed half-way without duplicates', async () => {
    const [{ id: sourceId }] = await dataSource.query(
      `SELECT id FROM sources WHERE name = 'Handbook folder'`,
    );
    // As a worker killed after it stored a new file's document and before it indexed it leaves things:
    // the run still running, the item claimed with its document, the document being parsed.
    write(join(folder, 'new.md'), '# New page\n\nA page added while the worker died.\n');
    await dataSource.query(
      `INSERT INTO source_sync_runs (source_id, status, trigger) VALUES ($1, 'running', 'manual')`,
      [sourceId],
    );
    const [{ id: documentId }] = await dataSource.query(
      `INSERT INTO documents (collection_id, source_id, title, content_hash, status, metadata)
       SELECT collection_id, id, 'new', 'pending', 'parsing', '{}'::jsonb FROM sources WHERE id = $1 RETURNING id`,
      [sourceId],
    );
    await dataSource.query(
      `INSERT INTO source_items (source_id, key, document_id) VALUES ($1, 'new.md', $2)`,
      [sourceId, documentId],
    );
    const shown = sourceSchema.parse((await admin('GET', `/sources/${sourceId}`)).body);
    expect(shown.state).toBe('syncing');

    const rerun = await sync(sourceId);
    expect(counts(rerun)).toEqual({ added: 1, updated: 0, unchanged: 3, deleted: 0, failed: 1 });
    const documents = await documentsOf(sourceId);
    expect(documents.filter((d) => d.path === 'new.md' || d.id === documentId)).toHaveLength(1);
    expect(documents.find((d) => d.path === 'new.md')).toMatchObject({
      id: documentId,
      status: 'indexed',
      title: 'New page',
    });
    const runs = pageOf(syncRunSchema).parse((await admin('GET', `/sources/${sourceId}/runs`)).body);
    expect(runs.items.filter((run) => run.status === 'interrupted')).toHaveLength(1);
    expect(runs.items.filter((run) => run.status === 'running')).toHaveLength(0);
  });

  it('answers a search during a sync with the old version or the new one of each file, never both or neither', async () => {
    const busy = join(root, 'busy');
    const FILES = 24;
    const page = (i: number, version: string) =>
      `# Shelf ${i}\n\nShelf marker quokka${i} holds the ${version} edition of the catalogue.\n`;
    for (let i = 0; i < FILES; i++) write(join(busy, `shelf-${i}.md`), page(i, 'spring'));
    const created = await admin('POST', '/sources', {
      name: 'Busy shelves',
      config: { kind: 'folder', path: busy },
    });
    expect(created.status).toBe(201);
    const sourceId: string = created.body.id;
    expect(counts(await sync(sourceId))).toMatchObject({ added: FILES, failed: 0 });

    // Every file changes; while the sync replaces them, each file's passage is found exactly once, in
    // one version or the other.
    for (let i = 0; i < FILES; i++) write(join(busy, `shelf-${i}.md`), page(i, 'autumn'));
    const searchShelf = async (i: number): Promise<string[]> => {
      const reply = await admin('POST', '/rag/search', {
        query: `quokka${i}`,
        settings: { ranker: 'bm25', topK: 5, enableQueryExpansion: false, enableHyDE: false },
      });
      expect(reply.status).toBe(200);
      return (reply.body.results as { text: string }[])
        .map((result) => result.text)
        .filter((text) => text.includes(`quokka${i} `));
    };
    const asked = await admin('POST', `/sources/${sourceId}/sync`);
    expect(asked.status).toBe(202);
    const seen = { spring: 0, autumn: 0 };
    let searches = 0;
    const until = Date.now() + 150_000;
    for (;;) {
      const i = searches % FILES;
      const found = await searchShelf(i);
      searches++;
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/the (spring|autumn) edition/);
      seen[found[0].includes('spring') ? 'spring' : 'autumn']++;
      const runs = pageOf(syncRunSchema).parse((await admin('GET', `/sources/${sourceId}/runs`)).body);
      if (runs.total === 2 && runs.items[0]!.status !== 'running') {
        expect(counts(runs.items[0]!)).toMatchObject({ updated: FILES, deleted: 0, failed: 0 });
        break;
      }
      if (Date.now() > until) throw new Error('the sync did not end');
    }
    // After the sync, the new version only.
    for (let i = 0; i < FILES; i++) {
      const found = await searchShelf(i);
      expect(found).toHaveLength(1);
      expect(found[0]).toContain('the autumn edition');
    }
    expect(searches).toBeGreaterThan(0);
    expect(seen.spring + seen.autumn).toBe(searches);
    expect((await admin('DELETE', `/sources/${sourceId}`)).status).toBe(200);
  }, 300_000);

  it('syncs a Git repository by the diff between commits, renames included, with citation links', async () => {
    mkdirSync(repo, { recursive: true });
    git('init', '--quiet', '--initial-branch=main');
    write(join(repo, 'docs/guide.md'), GUIDE);
    write(join(repo, 'docs/faq.md'), FAQ);
    write(join(repo, 'docs/old/retired.md'), '# Retired\n\nThis page is kept for history.\n');
    write(join(repo, 'README.md'), '# Repository\n\nNot documentation.\n');
    git('add', '.');
    git('commit', '--quiet', '-m', 'first');
    const firstCommit = git('rev-parse', 'HEAD');

    const created = await admin('POST', '/sources', {
      name: 'Handbook repository',
      config: {
        kind: 'git',
        url: repo,
        branch: 'main',
        include: ['docs/**/*.md'],
        exclude: ['docs/old/**'],
        webUrl: 'https://git.example.com/handbook/blob/{commit}/{path}',
      },
    });
    expect(created.status).toBe(201);
    const sourceId = created.body.id as string;

    const first = await sync(sourceId);
    expect(counts(first)).toEqual({ added: 2, updated: 0, unchanged: 0, deleted: 0, failed: 0 });
    expect(first).toMatchObject({ cursorBefore: null, cursorAfter: firstCommit });
    let documents = await documentsOf(sourceId);
    expect(documents.map((d) => d.path)).toEqual(['docs/faq.md', 'docs/guide.md']);
    const guide = documents.find((d) => d.path === 'docs/guide.md')!;
    expect(guide.metadata).toMatchObject({
      source: {
        kind: 'git',
        commit: firstCommit,
        url: `https://git.example.com/handbook/blob/${firstCommit}/docs/guide.md`,
      },
    });

    // A commit that changes one file, renames another, adds one and touches only excluded paths.
    write(
      join(repo, 'docs/faq.md'),
      `${FAQ}\n## How do I upgrade?\n\nRun the installer again; settings are kept.\n`,
    );
    git('mv', 'docs/guide.md', 'docs/setup.md');
    write(join(repo, 'docs/runbook.md'), RUNBOOK);
    write(join(repo, 'docs/old/retired.md'), '# Retired\n\nStill kept for history.\n');
    git('add', '.');
    git('commit', '--quiet', '-m', 'second');
    const secondCommit = git('rev-parse', 'HEAD');

    const second = await sync(sourceId);
    expect(counts(second)).toEqual({ added: 1, updated: 2, unchanged: 0, deleted: 0, failed: 0 });
    expect(second).toMatchObject({ cursorBefore: firstCommit, cursorAfter: secondCommit });
    documents = await documentsOf(sourceId);
    expect(documents.map((d) => d.path)).toEqual(['docs/faq.md', 'docs/runbook.md', 'docs/setup.md']);
    // The renamed file is the same document, now under its new path and link.
    const setup = documents.find((d) => d.path === 'docs/setup.md')!;
    expect(setup.id).toBe(guide.id);
    expect(setup.metadata).toMatchObject({
      source: {
        commit: secondCommit,
        url: `https://git.example.com/handbook/blob/${secondCommit}/docs/setup.md`,
      },
    });

    const listed = await admin('GET', `/documents?search=Setup`);
    expect(
      listed.body.items.map((d: Json) => d.origin).filter((origin: Json) => origin?.kind === 'git'),
    ).toEqual([
      {
        sourceId,
        kind: 'git',
        path: 'docs/setup.md',
        commit: secondCommit,
        url: `https://git.example.com/handbook/blob/${secondCommit}/docs/setup.md`,
      },
    ]);

    // A deletion, then a sync with nothing new: no embedding at all.
    git('rm', '--quiet', 'docs/runbook.md');
    git('commit', '--quiet', '-m', 'third');
    const third = await sync(sourceId);
    expect(counts(third)).toEqual({ added: 0, updated: 0, unchanged: 2, deleted: 1, failed: 0 });
    expect((await documentsOf(sourceId)).map((d) => d.path)).toEqual(['docs/faq.md', 'docs/setup.md']);
    const computed = embedder.stats.computed;
    const fourth = await sync(sourceId);
    expect(counts(fourth)).toEqual({ added: 0, updated: 0, unchanged: 2, deleted: 0, failed: 0 });
    expect(embedder.stats.computed - computed).toBe(0);
  }, 600_000);

  it('fails a sync whose repository cannot be fetched, changing nothing', async () => {
    const [{ id: sourceId }] = await dataSource.query(
      `SELECT id FROM sources WHERE name = 'Handbook repository'`,
    );
    const patched = await admin('PATCH', `/sources/${sourceId}`, {
      config: { kind: 'git', url: repo, branch: 'no-such-branch', include: ['docs/**/*.md'] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.cursor).toBeNull();
    const failed = await sync(sourceId);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/git fetch/);
    expect(await documentsOf(sourceId)).toHaveLength(2);
    const kindChange = await admin('PATCH', `/sources/${sourceId}`, {
      config: { kind: 'folder', path: folder },
    });
    expect(kindChange.status).toBe(400);
  });

  it('deletes a source with its documents, or keeping them', async () => {
    const list = pageOf(sourceSchema).parse((await admin('GET', '/sources')).body);
    expect(list.items.map((s) => s.name)).toEqual(['Handbook folder', 'Handbook repository']);
    const [folderSource, repoSource] = list.items;
    expect(existsSync(join(root, '.cache', `${repoSource!.id}.git`))).toBe(true);
    const kept = await admin('DELETE', `/sources/${repoSource!.id}?keepDocuments=true`);
    expect(existsSync(join(root, '.cache', `${repoSource!.id}.git`))).toBe(false);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ deleted: true, documentsDeleted: 0, documentsKept: 2 });
    const [{ count: detached }] = await dataSource.query(
      `SELECT count(*)::int AS count FROM documents WHERE source_id IS NULL AND metadata->'source'->>'kind' = 'git'`,
    );
    expect(detached).toBe(2);
    const removed = await admin('DELETE', `/sources/${folderSource!.id}`);
    expect(removed.body).toMatchObject({ deleted: true, documentsDeleted: 4, documentsKept: 0 });
    expect(await documentsOf(folderSource!.id)).toHaveLength(0);
    expect((await admin('GET', `/sources/${folderSource!.id}`)).status).toBe(404);
  });

  it('crawls a website: robots.txt, prefix, redirects, size limit, 304s, changes, removals and refusals', async () => {
    const site = new Map<
      string,
      { body?: string; type?: string; etag?: string; modified?: string; status?: number; location?: string }
    >();
    const page = (title: string, text: string, links: string[] = []) =>
      `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p>` +
      links.map((href) => `<a href="${href}">${href}</a>`).join(' ') +
      '</main></body></html>';
    const hits: { path: string; status: number }[] = [];
    const handler = (request: IncomingMessage, response: ServerResponse) => {
      const path = request.url!;
      const entry = site.get(path);
      const answer = (status: number, headers: Record<string, string> = {}, body = '') => {
        hits.push({ path, status });
        response.writeHead(status, headers).end(body);
      };
      if (!entry) return answer(404);
      if (entry.location) return answer(entry.status ?? 302, { location: entry.location });
      if (entry.status) return answer(entry.status);
      if (entry.etag && request.headers['if-none-match'] === entry.etag) return answer(304);
      if (entry.modified && request.headers['if-modified-since'] === entry.modified) return answer(304);
      answer(
        200,
        {
          'content-type': entry.type ?? 'text/html; charset=utf-8',
          ...(entry.etag ? { etag: entry.etag } : {}),
          ...(entry.modified ? { 'last-modified': entry.modified } : {}),
        },
        entry.body,
      );
    };
    const web: Server = createServer(handler);
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    try {
      site.set('/robots.txt', { body: 'User-agent: *\nDisallow: /docs/private/\n', type: 'text/plain' });
      site.set('/docs/', {
        body: page('Docs home', 'Start here to learn the agent.', [
          'agent.html',
          'network.html',
          'private/keys.html',
          '/blog/post.html',
          'loop-a',
          'big.html',
          'notes.txt',
          'moved',
          'mailto:ops@example.com',
        ]),
      });
      site.set('/docs/agent.html', {
        body: page('Agent', 'The agent ships logs to the collector every ten seconds.'),
        etag: '"agent-1"',
      });
      site.set('/docs/network.html', {
        body: page('Network', 'Open port 4317 to the collector before enrolling.'),
        modified: 'Sun, 06 Dec 2026 10:00:00 GMT',
      });
      site.set('/docs/private/keys.html', { body: page('Keys', 'Secret keys.') });
      site.set('/blog/post.html', { body: page('Blog', 'Outside the prefix.') });
      site.set('/docs/loop-a', { location: '/docs/loop-b' });
      site.set('/docs/loop-b', { location: '/docs/loop-a' });
      site.set('/docs/big.html', { body: page('Big', 'word '.repeat(2000)) });
      site.set('/docs/notes.txt', {
        body: 'Plain notes: rotate the logs weekly.',
        type: 'text/plain',
        etag: '"n1"',
      });
      site.set('/docs/moved', { location: `${base}/docs/agent-v2.html`, status: 301 });
      site.set('/docs/agent-v2.html', { body: page('Agent v2', 'Version two of the agent page.') });

      const created = await admin('POST', '/sources', {
        name: 'Docs site',
        config: { kind: 'website', startUrl: `${base}/docs/`, maxDepth: 2, requestsPerSecond: 50 },
      });
      expect(created.status).toBe(201);
      const sourceId = created.body.id as string;

      const first = await sync(sourceId);
      expect(counts(first)).toEqual({ added: 5, updated: 0, unchanged: 0, deleted: 0, failed: 2 });
      expect(Object.fromEntries(first.failures.map((f) => [f.item.slice(base.length), f.reason]))).toEqual({
        '/docs/loop-a': `redirects in a loop (back to ${base}/docs/loop-a)`,
        '/docs/big.html': 'larger than 4 KB (UPLOAD_MAX_BYTES)',
      });
      let documents = await documentsOf(sourceId);
      expect(documents.map((d) => (d.metadata as Json).source.path.slice(base.length)).sort()).toEqual([
        '/docs/',
        '/docs/agent-v2.html',
        '/docs/agent.html',
        '/docs/network.html',
        '/docs/notes.txt',
      ]);
      expect(documents.find((d) => d.title === 'Agent')).toBeDefined();
      // Neither the disallowed page nor the one outside the prefix was fetched.
      expect(hits.map((hit) => hit.path)).not.toContain('/docs/private/keys.html');
      expect(hits.map((hit) => hit.path)).not.toContain('/blog/post.html');

      // Again: the validators answer 304, the page without them hashes the same; nothing is embedded.
      hits.length = 0;
      const computed = embedder.stats.computed;
      const second = await sync(sourceId);
      expect(counts(second)).toEqual({ added: 0, updated: 0, unchanged: 5, deleted: 0, failed: 2 });
      expect(embedder.stats.computed - computed).toBe(0);
      const statusOf = (path: string) => hits.find((hit) => hit.path === path)?.status;
      expect([
        statusOf('/docs/agent.html'),
        statusOf('/docs/network.html'),
        statusOf('/docs/notes.txt'),
      ]).toEqual([304, 304, 304]);

      // A changed page, a removed one, one failing for now (kept), the big one cut down.
      site.set('/docs/network.html', {
        body: page('Network', 'Open port 4318 to the collector before enrolling.'),
        modified: 'Mon, 07 Dec 2026 10:00:00 GMT',
      });
      site.delete('/docs/agent.html');
      site.set('/docs/notes.txt', { body: '', status: 503 });
      site.set('/docs/big.html', { body: page('Big', 'Short now.') });
      const third = await sync(sourceId);
      expect(counts(third)).toEqual({ added: 1, updated: 1, unchanged: 2, deleted: 1, failed: 2 });
      expect(third.failures.map((f) => f.item.slice(base.length)).sort()).toEqual([
        '/docs/loop-a',
        '/docs/notes.txt',
      ]);
      documents = await documentsOf(sourceId);
      expect(documents.map((d) => (d.metadata as Json).source.path.slice(base.length)).sort()).toEqual([
        '/docs/',
        '/docs/agent-v2.html',
        '/docs/big.html',
        '/docs/network.html',
        '/docs/notes.txt',
      ]);

      // Loopback by another name is refused: at creation, and at sync time should the config say it.
      const refused = await admin('POST', '/sources', {
        name: 'Local',
        config: { kind: 'website', startUrl: base.replace('127.0.0.1', 'localhost') + '/docs/' },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/localhost resolves to .*SOURCE_ALLOWED_HOSTS/);
      await dataSource.query(
        `UPDATE sources SET config = jsonb_set(config, '{startUrl}', to_jsonb($2::text)) WHERE id = $1`,
        [sourceId, base.replace('127.0.0.1', 'localhost') + '/docs/'],
      );
      const blocked = await sync(sourceId);
      expect(blocked.status).toBe('failed');
      expect(blocked.error).toMatch(
        /robots.txt: localhost resolves to .*(127\.0\.0\.1|::1).*SOURCE_ALLOWED_HOSTS/,
      );
      expect(await documentsOf(sourceId)).toHaveLength(5);
    } finally {
      web.close();
    }
  }, 600_000);
});

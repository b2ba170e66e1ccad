import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import {
  createHttpApp,
  EMBEDDER,
  flags,
  generateApiKey,
  loadEnv,
  openDatabase,
  parseFlags,
  UsageError,
} from '@lumina/server-core';
import { randomWordDocuments } from './random-word-documents';

const ADMIN_KEY = generateApiKey().key;

const USAGE = `usage: npm run bench:sources -- [--files N] [--kind git|folder]

Makes a Git repository (or a folder) of N Markdown files (default 200, about 2 KB of words each) in a
temporary folder, syncs it as a source into a fresh embedded database with the workers in the process,
syncs it again unchanged, then once more after one file changed. Prints each sync's time (from the
request to the end of its report), its counts, and the embeddings it computed.`;

interface Pass {
  label: string;
  seconds: number;
  report: Record<string, unknown>;
  computed: number;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseFlags(
    argv,
    flags({ string: 'kind', boolean: 'help', defaults: { files: '200', kind: 'git' } }),
  );
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const files = Number(values.files);
  if (!Number.isInteger(files) || files < 1 || files > 100_000)
    throw new UsageError(`--files must be an integer from 1 to 100000, got "${values.files}"`);
  const kind = values.kind;
  if (kind !== 'git' && kind !== 'folder')
    throw new UsageError(`--kind must be git or folder, got "${kind}"`);

  const work = mkdtempSync(join(tmpdir(), 'lumina-bench-sources-'));
  const tree = join(work, 'handbook');
  const run = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], {
      cwd: tree,
    });
  const documents = randomWordDocuments(files, 2_000);
  mkdirSync(join(tree, 'docs'), { recursive: true });
  documents.forEach((document, i) =>
    writeFileSync(join(tree, 'docs', `page-${i + 1}.md`), `# ${document.title}\n\n${document.text}\n`),
  );
  if (kind === 'git') {
    run('init', '--quiet', '--initial-branch=main');
    run('add', '.');
    run('commit', '--quiet', '-m', 'pages');
  }

  const env = loadEnv({
    DATABASE_URL: '',
    PGLITE_DATA_DIR: join(work, 'pglite'),
    UPLOAD_DIR: join(work, 'uploads'),
    SOURCE_FOLDER_ROOTS: work,
    SOURCE_CACHE_DIR: join(work, 'cache'),
    WORKERS_IN_PROCESS: 'true',
    QUEUE_PREFIX: `bench-sources-${process.pid}`,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ADMIN_API_KEY: ADMIN_KEY,
  });
  const connection = await openDatabase(env);
  let app: INestApplication | undefined;
  try {
    app = await createHttpApp(env, connection);
    await app.listen(0, '127.0.0.1');
    const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const embedder = app.get<{ stats: { computed: number }; modelId: string }>(EMBEDDER, { strict: false });
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await response.json()) as Record<string, unknown> & { items?: Record<string, unknown>[] };
      if (response.status >= 300)
        throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    };
    const config =
      kind === 'git' ? { kind: 'git', url: tree, include: ['docs/**/*.md'] } : { kind: 'folder', path: tree };
    const source = await call('POST', '/sources', { name: 'Bench', config });
    const sync = async (label: string): Promise<Pass> => {
      const computed = embedder.stats.computed;
      const runsBefore = (await call('GET', `/sources/${source.id}/runs`)).total as number;
      const started = performance.now();
      await call('POST', `/sources/${source.id}/sync`);
      for (;;) {
        const runs = await call('GET', `/sources/${source.id}/runs?limit=1`);
        const last = runs.items![0];
        if ((runs.total as number) > runsBefore && last!.status !== 'running') {
          const seconds = (performance.now() - started) / 1000;
          if (last!.status !== 'succeeded') throw new Error(`${label}: ${JSON.stringify(last)}`);
          const pass = { label, seconds, report: last!, computed: embedder.stats.computed - computed };
          console.error(`${label}: ${seconds.toFixed(2)} s`);
          return pass;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    console.error(`${files} files, ${kind} source, embedder ${embedder.modelId}`);
    const passes = [await sync('first sync'), await sync('unchanged')];
    writeFileSync(join(tree, 'docs', 'page-1.md'), `# Changed\n\n${documents[0]!.text} changed at the end\n`);
    if (kind === 'git') run('commit', '--quiet', '-am', 'one change');
    passes.push(await sync('one file changed'));

    console.log(
      `| Sync (${files} files, ${kind}) | Seconds | Added | Updated | Unchanged | Embeddings computed |`,
    );
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const pass of passes) {
      const r = pass.report;
      console.log(
        `| ${pass.label} | ${pass.seconds.toFixed(2)} | ${r.added} | ${r.updated} | ${r.unchanged} | ${pass.computed} |`,
      );
    }
    console.log(`\nunchanged / first: ${((passes[1]!.seconds / passes[0]!.seconds) * 100).toFixed(1)} %`);
  } finally {
    await app?.close();
    await connection.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : error);
  process.exitCode = 1;
});

import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBeirDataset, REPORT_METRICS, selectQueriesWithQrels } from '@lumina/eval';
import type { BeirDataset, RetrievalReport } from '@lumina/eval';
import type { ChunkingSettings } from '@lumina/rag';
import { DataSource } from 'typeorm';
import { evaluateBeir } from '../cli/evaluate-beir';
import { beirBankImport } from './helpers/beir-bank-import';
import type { Env } from '../config/env.schema';
import type { Json } from './helpers/http';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { nodeDatasetFiles } from '../files/node-dataset-files';
import { LOCAL_EMBEDDING_MODEL } from '../providers/embedding-dimension';

/** A tiny BEIR dataset: eight passages about running services, six judged queries (one judged twice). */
const CORPUS = [
  ['d1', 'Failover', 'Promote the standby replica with pg_ctl promote, then repoint the connection string.'],
  ['d2', 'Backups', 'Nightly base backups run at 02:00 UTC and write-ahead log archiving allows recovery.'],
  ['d3', 'Redis', 'Redis holds the job queues; evictions are disabled so that no queued job is lost.'],
  ['d4', 'Access', 'Production access needs a second approval from the on-call lead engineer.'],
  [
    'd5',
    'Disk alarms',
    'Disk usage alarms fire at eighty percent; the primary database once ran out of disk.',
  ],
  ['d6', 'Deploys', 'Deploys roll out one availability zone at a time behind a feature flag.'],
  ['d7', 'Certificates', 'TLS certificates renew automatically thirty days before they expire.'],
  ['d8', 'On-call', 'The on-call engineer acknowledges pages within five minutes, day or night.'],
];
const QUERIES = [
  ['q1', 'how do I promote the standby replica'],
  ['q2', 'when do base backups run'],
  ['q3', 'are redis evictions disabled for the job queues'],
  ['q4', 'who approves production access'],
  ['q5', 'database ran out of disk'],
  ['q6', 'certificate renewal before expiry'],
  ['q7', 'a query nobody judged'],
];
const QRELS = [
  ['q1', 'd1', 1],
  ['q2', 'd2', 1],
  ['q3', 'd3', 2],
  ['q4', 'd4', 1],
  ['q4', 'd8', 1],
  ['q5', 'd5', 1],
  ['q6', 'd7', 1],
  ['q6', 'd6', 0],
] as const;

function writeTinyBeir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tiny-beir-'));
  mkdirSync(join(dir, 'qrels'));
  writeFileSync(
    join(dir, 'corpus.jsonl'),
    CORPUS.map(([id, title, text]) => JSON.stringify({ _id: id, title, text })).join('\n'),
  );
  writeFileSync(
    join(dir, 'queries.jsonl'),
    QUERIES.map(([id, text]) => JSON.stringify({ _id: id, text })).join('\n'),
  );
  writeFileSync(
    join(dir, 'qrels', 'test.tsv'),
    ['query-id\tcorpus-id\tscore', ...QRELS.map((row) => row.join('\t'))].join('\n'),
  );
  return dir;
}

const CHUNKING: ChunkingSettings = { unit: 'chunk', maxChars: 400, overlapChars: 60 };
const SETTINGS = { ranker: 'bm25' as const, topK: 10, candidateK: 30 };

describe('question-bank evaluation runs (queue, PGlite, libs/eval)', () => {
  const env: Env = testEnv();
  let server: TestApp;
  let datasetDir: string;
  let dataset: BeirDataset;
  let cliReport: RetrievalReport;
  let bankId: string;

  const call = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };

  const runToEnd = async (bank: string, settings: unknown): Promise<Json> => {
    const queued = await call('POST', `/question-banks/${bank}/evaluate`, { settings });
    expect(queued.status).toBe(202);
    expect(queued.body.status).toBe('queued');
    const until = Date.now() + 45_000;
    for (;;) {
      const run = await call('GET', `/eval-runs/${queued.body.id}`);
      if (run.body.status === 'completed' || run.body.status === 'failed') return run.body;
      if (Date.now() > until) throw new Error(`run ${queued.body.id} still ${run.body.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    datasetDir = writeTinyBeir();
    dataset = await loadBeirDataset(nodeDatasetFiles, datasetDir, 'test');
    // The eval command's path: its own throwaway database, its own indexing, its own search.
    [cliReport] = await evaluateBeir({
      env,
      dataset,
      datasetName: 'tiny',
      split: 'test',
      queries: selectQueriesWithQrels(dataset),
      chunking: CHUNKING,
      dbDir: 'memory://',
      exactDense: false,
      concurrency: 2,
      runs: [{ expansion: false, hyde: false, ...SETTINGS }],
    });
    // The app's path: the same corpus and queries imported as documents and a question bank.
    server = await startTestApp(env);
    const imported = await beirBankImport(server.app).importAsBank({
      dataset,
      datasetName: 'tiny',
      bankName: 'tiny test',
      chunking: CHUNKING,
      embedder: null,
      onProgress: () => () => undefined,
    });
    bankId = imported.bankId;
    expect(imported.report).toMatchObject({ accepted: 6, rejected: [], skipped: { count: 1 } });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(datasetDir, { recursive: true, force: true });
  });

  it('scores a bank run through the queue exactly as the eval command scores the same dataset', async () => {
    const run = await runToEnd(bankId, SETTINGS);
    expect(run.status).toBe('completed');
    expect(run.error).toBeNull();
    expect(cliReport.queries).toBe(6);
    // The report names the encoder its dense list read (the test environment's USE-lite).
    expect(cliReport.settings.embedder).toBe(LOCAL_EMBEDDING_MODEL);
    expect(run.scoredItems).toBe(cliReport.queries);
    for (const metric of REPORT_METRICS) {
      expect({ metric, value: run.metrics[metric] }).toEqual({ metric, value: cliReport.metrics[metric] });
      expect(run.intervals[metric]).toEqual(cliReport.intervals[metric]);
    }
    // Per item: the same first relevant rank as the eval command's per-query result.
    const byQuery = new Map(cliReport.perQuery.map((q) => [q.queryId, q]));
    const items = (await call('GET', `/question-banks/${bankId}/items?limit=100`)).body.items;
    const queryOf = new Map(items.map((item: Json) => [item.id, item.metadata.beirQueryId]));
    for (const result of run.perItem) {
      const query = byQuery.get(queryOf.get(result.itemId) as string)!;
      expect(result.firstRelevantRank).toBe(query.firstRelevantRank);
      expect(result.metrics['ndcg@10']).toBe(query.metrics['ndcg@10']);
      expect(result.level).toBe('document');
      expect(result.retrievedChunkIds.length).toBeGreaterThan(0);
    }
    // Not vacuous: the fixture is easy for BM25 but not perfect everywhere.
    expect(run.metrics['hit@5']).toBeGreaterThan(0.5);
    expect(run.metrics['recall@10']).toBeDefined();
    expect(run.metrics['hit@10']).toBeDefined();
    expect(run).toMatchObject({
      settings: expect.objectContaining(SETTINGS),
      itemCount: 6,
      datasetHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      promptVersions: { queryExpansion: null, hyde: null, rerank: null },
    });
    expect(run.embeddingModel).toBeTruthy();
  });

  it('measures refusals on out-of-scope items, judges chunk-cited items per chunk, and compares runs', async () => {
    const bank = (await call('POST', '/question-banks', { name: 'mixed' })).body;
    const dataSource = server.app.get(DataSource);
    const [redisChunk] = await dataSource.query(
      `SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.external_id = 'd3'`,
    );
    const added = await call('POST', `/question-banks/${bank.id}/items`, {
      items: [
        { question: 'are redis evictions disabled', expectedSources: [{ chunkId: redisChunk.id }] },
        { question: 'who approves production access', expectedSources: [{ documentId: 'd4' }] },
        { question: 'zebra giraffe savanna migration', inScope: false },
        { question: 'the job queues of redis', inScope: false },
        { question: 'how do deploys roll out', expectedSources: [{ documentId: 'd6', grade: 0 }] },
      ],
    });
    expect(added.status).toBe(201);

    const a = await runToEnd(bank.id, { ranker: 'bm25', topK: 5 });
    expect(a.status).toBe('completed');
    expect(a.scoredItems).toBe(2);
    const [chunkItem, docItem, zebra, queues, unjudged] = a.perItem;
    expect(chunkItem).toMatchObject({ level: 'chunk', firstRelevantRank: 1, refused: false });
    expect(chunkItem.ranking[0]).toBe(redisChunk.id);
    expect(docItem).toMatchObject({ level: 'document', firstRelevantRank: 1 });
    // BM25 finds nothing for words no passage has: refused. Words it knows: answered (not refused).
    expect(zebra).toMatchObject({ inScope: false, refused: true, retrievedChunkIds: [] });
    expect(queues).toMatchObject({ inScope: false, refused: false });
    expect(unjudged.skippedReason).toMatch(/no relevant expected source/);
    expect(a.refusal.outOfScope).toMatchObject({ items: 2, refused: 1, rate: 0.5 });
    expect(a.refusal.inScope).toMatchObject({ items: 3, refused: 0 });

    // Restricting the search to an unrelated document makes both scored items miss.
    const [{ id: deploys }] = await dataSource.query(`SELECT id FROM documents WHERE external_id = 'd6'`);
    const b = await runToEnd(bank.id, { ranker: 'bm25', topK: 5, documentIds: [deploys] });
    expect(b.metrics['hit@1']).toBe(0);
    const comparison = await call('GET', `/eval-runs/compare?a=${a.id}&b=${b.id}`);
    expect(comparison.status).toBe(200);
    expect(comparison.body.pairedItems).toBe(2);
    const hit1 = comparison.body.comparisons.find((c: Json) => c.metric === 'hit@1');
    expect(hit1).toMatchObject({ a: 1, b: 0, difference: -1, test: 'mcnemar-exact' });
    expect(hit1.pValue).toBe(0.5);
    expect(comparison.body.flips['hit@1'].onlyA.map((f: Json) => f.question).sort()).toEqual([
      'are redis evictions disabled',
      'who approves production access',
    ]);
    expect(comparison.body.flips['hit@1'].onlyB).toEqual([]);
    expect(comparison.body.refusalFlips.onlyB.map((f: Json) => f.question)).toEqual([
      'the job queues of redis',
    ]);
    expect(comparison.body.warnings).toEqual([]);

    const listed = await call('GET', `/eval-runs?bankId=${bank.id}&limit=1`);
    expect(listed.body).toMatchObject({ total: 2, totalPages: 2, limit: 1, page: 1 });
    expect(listed.body.items[0].id).toBe(b.id);
    expect(listed.body.items[0].perItem).toBeUndefined();
  });

  it('answers 404 for unknown runs and banks, and 400 for bad settings, ids and empty banks', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call('GET', `/eval-runs/${unknown}`)).status).toBe(404);
    expect((await call('GET', `/eval-runs?bankId=${unknown}`)).status).toBe(404);
    expect((await call('POST', `/question-banks/${unknown}/evaluate`, {})).status).toBe(404);
    expect((await call('GET', `/eval-runs/compare?a=${unknown}&b=${unknown}`)).status).toBe(404);
    const bad = await call('GET', '/eval-runs/compare?a=1');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.message)).toMatch(/b is required/);
    expect((await call('GET', '/eval-runs/not-a-uuid')).status).toBe(400);
    const settings = await call('POST', `/question-banks/${bankId}/evaluate`, { settings: { topK: 0 } });
    expect(settings.status).toBe(400);
    expect(JSON.stringify(settings.body.message)).toMatch(/topK must be 1 or more/);
    const empty = (await call('POST', '/question-banks', { name: 'nothing yet' })).body;
    const refused = await call('POST', `/question-banks/${empty.id}/evaluate`, {});
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.message)).toMatch(/has no items to evaluate/);
  });

  it('deleting a bank deletes its runs', async () => {
    const bank = (await call('POST', '/question-banks', { name: 'short-lived' })).body;
    await call('POST', `/question-banks/${bank.id}/items`, { question: 'who approves production access' });
    const run = await runToEnd(bank.id, {});
    expect((await call('DELETE', `/question-banks/${bank.id}`)).status).toBe(204);
    expect((await call('GET', `/eval-runs/${run.id}`)).status).toBe(404);
  });
});

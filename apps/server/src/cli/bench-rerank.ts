import 'reflect-metadata';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadBeirDataset, quantileSorted, selectQueriesWithQrels } from '@lumina/eval';
import { searchKnowledge, toRerankCandidate } from '@lumina/rag';
import type { EvidenceRerankInput } from '@lumina/rag';
import { DEFAULT_SETTINGS } from '@lumina/shared';
import { loadEnv } from '../config/load-env';
import { openDataSource } from '../app-data-source';
import { createEmbedder } from '../providers/create-embedder';
import { learnedRerankerFor } from '../providers/learned-reranker.loader';
import { createSearchPorts } from '../modules/rag/search-ports.factory';
import { indexBeirCorpus } from './beir-index';
import { nonNegativeInt, positiveInt, runCommand, UsageError } from './cli-args';
import { progressReporter } from './progress';
import { nodeDatasetFiles } from '../files/node-dataset-files';

const USAGE = `usage:
  npm run bench:rerank -- --dataset <beir-dir> --model <model.json> [--split test] [--limit-queries 100]
                          [--candidate-k 30] [--warmup 5] [--db-dir <dir>]

Time of the learned reranker per search, one search at a time, as the API runs it (BM25, enableRerank,
candidateK candidates): the rerank step the search reports (reading the evidence in SQL, the features and
the scores), the features and scores alone in memory, and the whole search with and without reranking.
Reuses the eval command's index (.data/eval/<dataset>-chunk-<size>-<overlap>) or builds it.`;

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      model: { type: 'string' },
      split: { type: 'string', default: 'test' },
      'limit-queries': { type: 'string', default: '100' },
      'candidate-k': { type: 'string', default: String(DEFAULT_SETTINGS.candidateK) },
      warmup: { type: 'string', default: '5' },
      'db-dir': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const loaded = loadEnv();
  const env = { ...loaded, RERANK_MODEL_FILE: values.model ?? loaded.RERANK_MODEL_FILE };
  const reranker = learnedRerankerFor(env);
  if (!reranker) throw new UsageError('--model <model.json> (or RERANK_MODEL_FILE) is required');
  const datasetDir = values.dataset ?? env.EVAL_DATASET_DIR;
  if (!datasetDir) throw new UsageError('--dataset (or EVAL_DATASET_DIR) is required');
  const candidateK = positiveInt(values['candidate-k'], '--candidate-k');
  const warmup = nonNegativeInt(values.warmup, '--warmup');
  const datasetName = basename(resolve(datasetDir));
  const dataset = await loadBeirDataset(nodeDatasetFiles, datasetDir, values.split);
  const queries = selectQueriesWithQrels(dataset).slice(
    0,
    positiveInt(values['limit-queries'], '--limit-queries'),
  );
  const chunking = {
    unit: 'chunk' as const,
    maxChars: env.CHUNK_MAX_CHARS,
    overlapChars: env.CHUNK_OVERLAP_CHARS,
  };
  const dbDir =
    values['db-dir'] ?? `.data/eval/${datasetName}-chunk-${chunking.maxChars}-${chunking.overlapChars}`;
  const database = await openDataSource({ ...env, PGLITE_DATA_DIR: dbDir, PGLITE_PORT: 0 });
  try {
    const { dataSource } = database;
    await indexBeirCorpus(dataSource, dataset, datasetName, chunking, null, progressReporter);
    const search = createSearchPorts(dataSource, env, createEmbedder(env), { reranker });
    const plain = { ranker: 'bm25' as const, candidateK, topK: DEFAULT_SETTINGS.topK };
    const reranked = { ...plain, enableRerank: true };
    const rerankMs: number[] = [];
    const computeMs: number[] = [];
    const withMs: number[] = [];
    const withoutMs: number[] = [];
    const report = progressReporter('searching');
    for (let i = -warmup; i < queries.length; i++) {
      const query = queries[(i + queries.length) % queries.length];
      const t0 = performance.now();
      await searchKnowledge(query.text, plain, search.ports, search.options);
      const t1 = performance.now();
      const result = await searchKnowledge(query.text, reranked, search.ports, search.options);
      const t2 = performance.now();
      if (result.warnings.length) throw new Error(result.warnings.join('; '));
      // The in-memory part alone, on the same candidates: features and scores.
      const input = await rerankInput(search.ports, query.text, plain.candidateK);
      const t3 = performance.now();
      reranker.rerankWithEvidence(input);
      const t4 = performance.now();
      if (i < 0) continue;
      withoutMs.push(t1 - t0);
      withMs.push(t2 - t1);
      rerankMs.push(result.timings.rerank);
      computeMs.push(t4 - t3);
      report(i + 1, queries.length);
    }
    const line = (name: string, values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const q = (p: number) => quantileSorted(sorted, p).toFixed(2);
      return `${name.padEnd(44)} p50 ${q(0.5).padStart(8)} ms   p95 ${q(0.95).padStart(8)} ms`;
    };
    console.log(
      `${reranker.modelId}, ${candidateK} candidates, ${queries.length} queries of ${datasetName}/${values.split}`,
    );
    console.log(line('rerank step (SQL evidence + features + scores)', rerankMs));
    console.log(line('features + scores in memory', computeMs));
    console.log(line('search, BM25', withoutMs));
    console.log(line('search, BM25 + learned rerank', withMs));
  } finally {
    await database.close();
  }
}

/** The reranker's input for a query's BM25 candidates, read the way the search reads it. */
async function rerankInput(
  ports: ReturnType<typeof createSearchPorts>['ports'],
  query: string,
  k: number,
): Promise<EvidenceRerankInput> {
  const hits = await ports.chunks.lexical(query, k);
  const ids = hits.map((h) => h.chunkId);
  const [records, evidence] = await Promise.all([
    ports.chunks.fetch(ids),
    ports.chunks.rerankEvidence!(query, ids),
  ]);
  const candidates = records.map((r, i) =>
    toRerankCandidate(r.chunkId, r, i + 1, [{ branch: 'original:bm25', rank: i + 1, score: hits[i].score }]),
  );
  return { query, candidates, evidence };
}

runCommand(main, USAGE);

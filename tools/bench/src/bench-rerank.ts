import 'reflect-metadata';
import { quantileSorted } from '@lumina/eval';
import { searchKnowledge, toRerankCandidate } from '@lumina/rag';
import type { EvidenceRerankInput, SearchPorts } from '@lumina/rag';
import {
  BeirCorpusIndexer,
  datasetDirOf,
  envChunking,
  EvalSearchFactory,
  evalDbDir,
  flags,
  learnedRerankerFor,
  loadEnv,
  loadEvalDataset,
  nonNegativeInt,
  parseFlags,
  positiveInt,
  progressReporter,
  runCommand,
  UsageError,
  withEvalDatabase,
} from '@lumina/server-core';
import { DEFAULT_SETTINGS } from '@lumina/shared';

const USAGE = `usage:
  npm run bench:rerank -- --dataset <beir-dir> --model <model.json> [--split test] [--limit-queries 100]
                          [--candidate-k 30] [--warmup 5] [--db-dir <dir>]

Time of the learned reranker per search, one search at a time, as the API runs it (BM25, enableRerank,
candidateK candidates): the rerank step the search reports (reading the evidence in SQL, the features and
the scores), the features and scores alone in memory, and the whole search with and without reranking.
Reuses the eval command's index (.data/eval/<dataset>-chunk-<size>-<overlap>) or builds it.`;

const FLAGS = flags({
  string: 'dataset model db-dir',
  boolean: 'help',
  defaults: {
    split: 'test',
    'limit-queries': '100',
    'candidate-k': String(DEFAULT_SETTINGS.candidateK),
    warmup: '5',
  },
});

async function main(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, FLAGS);
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const loaded = loadEnv();
  const env = { ...loaded, RERANK_MODEL_FILE: values.model ?? loaded.RERANK_MODEL_FILE };
  const reranker = learnedRerankerFor(env);
  if (!reranker) throw new UsageError('--model <model.json> (or RERANK_MODEL_FILE) is required');
  const datasetDir = datasetDirOf(values.dataset, env);
  const candidateK = positiveInt(values['candidate-k'], '--candidate-k');
  const warmup = nonNegativeInt(values.warmup, '--warmup');
  const limit = positiveInt(values['limit-queries'], '--limit-queries');
  const { name: datasetName, dataset, queries } = await loadEvalDataset(datasetDir, values.split, limit);
  const chunking = envChunking(env);
  const dbDir = values['db-dir'] ?? evalDbDir(datasetName, chunking);
  await withEvalDatabase(env, dbDir, async (app) => {
    await app.get(BeirCorpusIndexer).index(dataset, datasetName, chunking, null, progressReporter);
    const search = app.get(EvalSearchFactory).ports({ reranker });
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
  });
}

/** The reranker's input for a query's BM25 candidates, read the way the search reads it. */
async function rerankInput(ports: SearchPorts, query: string, k: number): Promise<EvidenceRerankInput> {
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

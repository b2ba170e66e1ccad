import 'reflect-metadata';
import { beirSubset, quantileSorted } from '@lumina/eval';
import { searchKnowledge, toRerankCandidate } from '@lumina/rag';
import type { EvidenceRerankInput, LearnedReranker, SearchPorts } from '@lumina/rag';
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
  npm run bench:rerank -- --dataset <beir-dir> --model <model.json>[,<model.json>…] [--split test]
                          [--limit-queries 100] [--candidate-k 30] [--warmup 5] [--distractors N]
                          [--db-dir <dir>]

Time of the learned reranker per search, one search at a time, as the API runs it (BM25, enableRerank,
candidateK candidates): the rerank step the search reports (reading the evidence in SQL, the features and
the scores), the features and scores alone in memory, and the whole search with and without reranking.
Several models are timed side by side, query by query, in one run. A model that weighs the query's
cosine has the corpus embedded (EMBEDDINGS_* configure the embedder) and each query embedded beside its
BM25 search, as the server does; the query's embedding alone is timed too. Reuses the eval command's
index (.data/eval/<dataset>-chunk-<size>-<overlap>) or builds it. --distractors N indexes only the
queries' judged documents and N seeded others, in a throwaway database (embedding a whole corpus offline
takes long).`;

const FLAGS = flags({
  string: 'dataset model db-dir distractors',
  boolean: 'help',
  defaults: {
    split: 'test',
    'limit-queries': '100',
    'candidate-k': String(DEFAULT_SETTINGS.candidateK),
    warmup: '5',
  },
});

interface Timed {
  reranker: LearnedReranker;
  rerankMs: number[];
  computeMs: number[];
  searchMs: number[];
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, FLAGS);
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const env = loadEnv();
  const files = (values.model ?? env.RERANK_MODEL_FILE ?? '').split(',').filter(Boolean);
  if (!files.length) throw new UsageError('--model <model.json> (or RERANK_MODEL_FILE) is required');
  const timed: Timed[] = files.map((file) => ({
    reranker: learnedRerankerFor({ RERANK_MODEL_FILE: file })!,
    rerankMs: [],
    computeMs: [],
    searchMs: [],
  }));
  const datasetDir = datasetDirOf(values.dataset, env);
  const candidateK = positiveInt(values['candidate-k'], '--candidate-k');
  const warmup = nonNegativeInt(values.warmup, '--warmup');
  const limit = positiveInt(values['limit-queries'], '--limit-queries');
  const loadedSet = await loadEvalDataset(datasetDir, values.split, limit);
  const { name: datasetName, queries } = loadedSet;
  const distractors =
    values.distractors === undefined ? undefined : nonNegativeInt(values.distractors, '--distractors');
  // The subset keeps the measured queries (the first with judgements, as loadEvalDataset takes them).
  const dataset =
    distractors === undefined
      ? loadedSet.dataset
      : beirSubset(loadedSet.dataset, { queries: queries.length, distractors, seed: 13 });
  const chunking = envChunking(env);
  const dbDir =
    values['db-dir'] ?? (distractors === undefined ? evalDbDir(datasetName, chunking) : 'memory://');
  await withEvalDatabase(env, dbDir, async (app) => {
    const factory = app.get(EvalSearchFactory);
    const plainSearch = factory.ports({});
    const dense = timed.some((t) => t.reranker.needsQueryVector);
    const embedder = dense ? plainSearch.embedder : null;
    await app.get(BeirCorpusIndexer).index(dataset, datasetName, chunking, embedder, progressReporter);
    const searches = timed.map((t) => factory.ports({ reranker: t.reranker }));
    const plain = { ranker: 'bm25' as const, candidateK, topK: DEFAULT_SETTINGS.topK };
    const reranked = { ...plain, enableRerank: true };
    const withoutMs: number[] = [];
    const embedMs: number[] = [];
    const report = progressReporter('searching');
    for (let i = -warmup; i < queries.length; i++) {
      const query = queries[(i + queries.length) % queries.length];
      const t0 = performance.now();
      await searchKnowledge(query.text, plain, plainSearch.ports, plainSearch.options);
      if (i >= 0) withoutMs.push(performance.now() - t0);
      if (embedder) {
        const e0 = performance.now();
        await embedder.embed([query.text]);
        if (i >= 0) embedMs.push(performance.now() - e0);
      }
      for (const [m, t] of timed.entries()) {
        const search = searches[m];
        const t1 = performance.now();
        const result = await searchKnowledge(query.text, reranked, search.ports, search.options);
        const t2 = performance.now();
        if (result.warnings.length) throw new Error(result.warnings.join('; '));
        // The in-memory part alone, on the same candidates: features and scores.
        const input = await rerankInput(search.ports, query.text, candidateK, t.reranker.needsQueryVector);
        const t3 = performance.now();
        t.reranker.rerankWithEvidence(input);
        const t4 = performance.now();
        if (i < 0) continue;
        t.searchMs.push(t2 - t1);
        t.rerankMs.push(result.timings.rerank);
        t.computeMs.push(t4 - t3);
      }
      if (i >= 0) report(i + 1, queries.length);
    }
    const line = (name: string, values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const q = (p: number) => quantileSorted(sorted, p).toFixed(2);
      return `${name.padEnd(48)} p50 ${q(0.5).padStart(8)} ms   p95 ${q(0.95).padStart(8)} ms`;
    };
    console.log(
      `${candidateK} candidates, ${queries.length} queries of ${datasetName}/${values.split}, ` +
        `${dataset.corpus.size} documents indexed${embedder ? ` and embedded (${embedder.modelId})` : ''}`,
    );
    console.log(line('search, BM25', withoutMs));
    if (embedder) console.log(line(`the query's embedding alone (${embedder.modelId})`, embedMs));
    for (const t of timed) {
      const cosine = t.reranker.needsQueryVector ? ', waits for the query embedding' : '';
      console.log(`${t.reranker.modelId}${cosine}`);
      console.log(line('  rerank step (SQL evidence + features + scores)', t.rerankMs));
      console.log(line('  features + scores in memory', t.computeMs));
      console.log(line('  search, BM25 + learned rerank', t.searchMs));
    }
  });
}

/**
 * The reranker's input for a query's BM25 candidates, read the way the search reads it (with each
 * candidate's cosine to the query when the model weighs it).
 */
async function rerankInput(
  ports: SearchPorts,
  query: string,
  k: number,
  dense: boolean,
): Promise<EvidenceRerankInput> {
  const hits = await ports.chunks.lexical(query, k);
  const ids = hits.map((h) => h.chunkId);
  const [records, evidence, cosines] = await Promise.all([
    ports.chunks.fetch(ids),
    ports.chunks.rerankEvidence!(query, ids),
    dense
      ? ports.embedder.embed([query]).then(([vector]) => ports.chunks.similarity(ids, vector))
      : undefined,
  ]);
  if (cosines)
    evidence.passages = evidence.passages.map((p) => ({ ...p, cosine: cosines.get(p.chunkId) ?? null }));
  const candidates = records.map((r, i) =>
    toRerankCandidate(r.chunkId, r, i + 1, [{ branch: 'original:bm25', rank: i + 1, score: hits[i].score }]),
  );
  return { query, candidates, evidence };
}

runCommand(main, USAGE);

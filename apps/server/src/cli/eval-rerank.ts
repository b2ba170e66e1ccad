import { readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  RANKING_LEARNERS,
  crossValidateFit,
  fitRankingModel,
  loadBeirDataset,
  modelImportance,
  selectQueriesWithQrels,
} from '@lumina/eval';
import type { JudgedRankingSample, RankingFitSpec, RankingLearner } from '@lumina/eval';
import {
  DEFAULT_LAMBDAMART_FIT,
  DEFAULT_LTR_FIT,
  LTR_FEATURES,
  LtrFeatureRecorder,
  searchKnowledge,
} from '@lumina/rag';
import type { LtrFeature } from '@lumina/rag';
import { DEFAULT_SETTINGS } from '@lumina/shared';
import type { Env } from '../config/env.schema';
import { loadEnv } from '../config/load-env';
import { openDataSource } from '../database/open-data-source';
import { createEmbedder } from '../providers/create-embedder';
import { createSearchPorts } from '../modules/rag/search-ports.factory';
import { indexBeirCorpus } from './beir-index';
import { nonNegativeNumber, positiveInt, positiveNumber, UsageError } from './cli-args';
import { progressReporter } from './progress';
import { nodeDatasetFiles } from '../files/node-dataset-files';

export const RERANK_USAGE = `usage:
  npm run eval -- --suite rerank --dataset <beir-dir> --split train --fit <model.json> --version <name>
                  [--candidate-k 30] [--features a,b,…] [--dense] [--cv 5] [--cv-by-document]
                  [--learner lambdamart|linear]
                  [--trees 200] [--learning-rate 0.05] [--depth 4] [--min-leaf 200]   (lambdamart)
                  [--l2 0.001] [--seed 1] [--max-pairs 300] [--objective ranknet|ndcg]  (linear)
                  [--samples <samples.json>] [--from-samples <samples.json>]
                  [--limit-queries N] [--concurrency 2] [--db-dir <dir>]

Fits the learned reranker on a BEIR split (use TRAIN, never the split you report on): every judged query
is searched the way the app searches (BM25, the original query), the features of its candidateK
candidates are read from the index exactly as the reranker will read them, and a model is fitted on the
judged relevance of each candidate's document: LambdaMART's gradient-boosted trees (the default), or a
linear model fitted pairwise. Writes a versioned model (features, trees or weights, provenance);
RERANK_MODEL_FILE makes the server rerank with it, and
npm run eval -- --rerank-model <model.json> evaluates it. --cv k prints k-fold cross-validated nDCG@10
over the candidates (fused order against reranked, paired test) — for a bank without a split, or to
choose options on the train split. --objective ndcg refines the linear fit by coordinate ascent on the
fitting queries' nDCG@10. --cv-by-document keeps queries that share a relevant document in one fold, so
the held-out queries ask about documents the fit was never judged on (no credit for remembering them). --samples writes the features read; --from-samples fits on such a
file without searching again. --dense embeds the corpus and each query (EMBEDDINGS_* configure the
embedder) so that the dense features (the query's cosine to each candidate) are read too; without it
they are 0 and a fit gives them no weight.`;

export async function runRerankCli(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      split: { type: 'string', default: 'train' },
      fit: { type: 'string' },
      version: { type: 'string' },
      'candidate-k': { type: 'string', default: String(DEFAULT_SETTINGS.candidateK) },
      l2: { type: 'string', default: String(DEFAULT_LTR_FIT.l2) },
      seed: { type: 'string', default: String(DEFAULT_LTR_FIT.seed) },
      'max-pairs': { type: 'string', default: String(DEFAULT_LTR_FIT.maxPairsPerQuery) },
      features: { type: 'string' },
      cv: { type: 'string' },
      objective: { type: 'string', default: 'ranknet' },
      samples: { type: 'string' },
      'from-samples': { type: 'string' },
      'limit-queries': { type: 'string' },
      concurrency: { type: 'string', default: '2' },
      'db-dir': { type: 'string' },
      dense: { type: 'boolean', default: false },
      'cv-by-document': { type: 'boolean', default: false },
      learner: { type: 'string', default: 'lambdamart' },
      trees: { type: 'string', default: String(DEFAULT_LAMBDAMART_FIT.trees) },
      'learning-rate': { type: 'string', default: String(DEFAULT_LAMBDAMART_FIT.learningRate) },
      depth: { type: 'string', default: String(DEFAULT_LAMBDAMART_FIT.maxDepth) },
      'min-leaf': { type: 'string', default: String(DEFAULT_LAMBDAMART_FIT.minLeafRows) },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(RERANK_USAGE);
    return;
  }
  const env = loadEnv();
  const datasetDir = values.dataset ?? env.EVAL_DATASET_DIR;
  if (!datasetDir && !values['from-samples'])
    throw new UsageError('--dataset (or EVAL_DATASET_DIR) or --from-samples is required');
  if (!values.fit && !values.cv && !values.samples)
    throw new UsageError('--fit <model.json>, --cv <folds> or --samples <file> is required');
  if (values.fit && !values.version)
    throw new UsageError('--version <name> is required: every trace names it');
  const features = (values.features ? values.features.split(',') : [...LTR_FEATURES]) as LtrFeature[];
  const unknown = features.filter((f) => !(LTR_FEATURES as readonly string[]).includes(f));
  if (unknown.length)
    throw new UsageError(`unknown features: ${unknown.join(', ')} (known: ${LTR_FEATURES.join(', ')})`);
  const candidateK = positiveInt(values['candidate-k'], '--candidate-k');
  const limit = values['limit-queries'] ? positiveInt(values['limit-queries'], '--limit-queries') : undefined;
  const concurrency = positiveInt(values.concurrency, '--concurrency');

  const read = values['from-samples']
    ? loadSamples(values['from-samples'])
    : await readSamples({
        datasetDir: datasetDir!,
        datasetName: basename(resolve(datasetDir!)),
        split: values.split,
        candidateK,
        limit,
        concurrency,
        dbDir: values['db-dir'],
        dense: values.dense,
        env,
      });
  if (values.samples) {
    writeFileSync(values.samples, JSON.stringify(read));
    console.error(`${read.samples.length} queries' features written to ${values.samples}`);
  }
  const { samples } = read;
  const learner = values.learner as RankingLearner;
  if (!RANKING_LEARNERS.includes(learner))
    throw new UsageError(`--learner must be ${RANKING_LEARNERS.join(' or ')}`);
  if (values.objective !== 'ranknet' && values.objective !== 'ndcg')
    throw new UsageError('--objective must be ranknet or ndcg');
  const source = {
    version: values.version ?? 'cross-validation',
    source: read.source,
    candidateDepth: read.candidateK,
    notes: { search: read.search, queriesAsked: read.queriesAsked },
  };
  const spec: RankingFitSpec =
    learner === 'linear'
      ? {
          learner,
          objective: values.objective,
          options: {
            ...source,
            features,
            l2: nonNegativeNumber(values.l2, '--l2'),
            seed: positiveInt(values.seed, '--seed'),
            maxPairsPerQuery: positiveInt(values['max-pairs'], '--max-pairs'),
            maxIterations: DEFAULT_LTR_FIT.maxIterations,
          },
        }
      : {
          learner,
          options: {
            ...DEFAULT_LAMBDAMART_FIT,
            ...source,
            features,
            trees: positiveInt(values.trees, '--trees'),
            learningRate: positiveNumber(values['learning-rate'], '--learning-rate'),
            maxDepth: positiveInt(values.depth, '--depth'),
            minLeafRows: positiveInt(values['min-leaf'], '--min-leaf'),
          },
        };
  if (values.cv) {
    const cv = crossValidateFit(
      samples,
      spec,
      positiveInt(values.cv, '--cv'),
      positiveInt(values.seed, '--seed'),
      values['cv-by-document'],
    );
    console.log(
      `${cv.folds}-fold cross-validation${values['cv-by-document'] ? ' (queries sharing a relevant document kept together)' : ''} ` +
        `on ${read.source}, ${cv.queries} queries, nDCG@10 over ${read.candidateK} ` +
        `candidates: search order ${cv.meanBefore.toFixed(4)}, reranked ${cv.meanAfter.toFixed(4)} ` +
        `(${cv.meanAfter - cv.meanBefore >= 0 ? '+' : ''}${(cv.meanAfter - cv.meanBefore).toFixed(4)}, paired randomisation p = ${cv.p.toFixed(4)})`,
    );
  }
  if (!values.fit) return;
  const started = Date.now();
  const model = fitRankingModel(samples, spec);
  const steps = learner === 'linear' ? 'Newton steps' : 'trees';
  console.error(
    `fitted on ${model.training.queries} queries, ${model.training.pairs} pairs in ${Date.now() - started} ms ` +
      `(${model.training.iterations} ${steps}, converged: ${model.training.converged}); ` +
      `pairwise loss ${model.training.loss.initial} → ${model.training.loss.final}` +
      (model.training.coordinateAscent
        ? `; nDCG@10 on the fitting queries ${model.training.coordinateAscent.ndcgBefore} → ${model.training.coordinateAscent.ndcgAfter}`
        : ''),
  );
  const format = (value: number) => (learner === 'linear' ? value.toFixed(4) : `${value} splits`);
  console.log(
    modelImportance(model)
      .map((f) => `${f.feature.padEnd(28)} ${format(f.value)}`)
      .join('\n'),
  );
  writeFileSync(values.fit, `${JSON.stringify(model, null, 2)}\n`);
  console.error(`model ${model.version} written to ${values.fit}`);
}

/** The features of every judged query's candidates, as the search reads them, with the judgments. */
interface RecordedSamples {
  /** The feature names, in the rows' column order. */
  features: string[];
  source: string;
  candidateK: number;
  queriesAsked: number;
  search: Record<string, unknown>;
  samples: JudgedRankingSample[];
}

function loadSamples(file: string): RecordedSamples {
  const read = JSON.parse(readFileSync(file, 'utf8')) as RecordedSamples;
  if (JSON.stringify(read.features) !== JSON.stringify(LTR_FEATURES))
    throw new UsageError(`${file} holds other features than this version reads; read them again`);
  return read;
}

async function readSamples(input: {
  datasetDir: string;
  datasetName: string;
  split: string;
  candidateK: number;
  limit: number | undefined;
  concurrency: number;
  dbDir: string | undefined;
  dense: boolean;
  env: Env;
}): Promise<RecordedSamples> {
  const { env, datasetName, candidateK } = input;
  const dataset = await loadBeirDataset(nodeDatasetFiles, input.datasetDir, input.split);
  const queries = selectQueriesWithQrels(dataset).slice(0, input.limit);
  const chunking = {
    unit: 'chunk' as const,
    maxChars: env.CHUNK_MAX_CHARS,
    overlapChars: env.CHUNK_OVERLAP_CHARS,
  };
  // The retrieval eval's database for the same chunking, so the index is shared with it.
  const dbDir =
    input.dbDir ?? `.data/eval/${datasetName}-chunk-${chunking.maxChars}-${chunking.overlapChars}`;
  const database = await openDataSource({ ...env, PGLITE_DATA_DIR: dbDir, PGLITE_PORT: 0 });
  try {
    const { dataSource } = database;
    const search = createSearchPorts(dataSource, env, createEmbedder(env), {});
    const indexed = await indexBeirCorpus(
      dataSource,
      dataset,
      datasetName,
      chunking,
      input.dense ? search.embedder : null,
      progressReporter,
    );
    console.error(
      `index: ${indexed.documentsAdded} documents added, ${indexed.chunksWritten} chunks written`,
    );
    const settings = { ranker: 'bm25' as const, enableRerank: true, candidateK, topK: candidateK };
    const byQuery = new Map<string, JudgedRankingSample>();
    const report = progressReporter('reading features');
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < queries.length) {
        const query = queries[next++];
        const recorder = new LtrFeatureRecorder({ dense: input.dense });
        const result = await searchKnowledge(
          query.text,
          settings,
          { ...search.ports, reranker: recorder },
          search.options,
        );
        const failed = result.warnings.find((w) => /^Rerank/.test(w));
        if (failed) throw new Error(`query ${query.id}: ${failed}`);
        const [recorded] = recorder.recorded;
        const judged = dataset.qrels.get(query.id) ?? new Map<string, number>();
        byQuery.set(query.id, {
          queryId: query.id,
          rows: recorded?.rows ?? [],
          documents: recorded?.documents ?? [],
          relevance: (recorded?.documents ?? []).map((doc) => Math.max(0, judged.get(doc) ?? 0)),
          judged: Object.fromEntries(judged),
        });
        report(++done, queries.length);
      }
    };
    await Promise.all(Array.from({ length: input.concurrency }, worker));
    return {
      features: [...LTR_FEATURES],
      source: `${datasetName}:${input.split}`,
      candidateK,
      queriesAsked: queries.length,
      search: {
        ranker: settings.ranker,
        candidateK,
        k1: env.BM25_K1,
        b: env.BM25_B,
        chunking,
        ...(input.dense ? { embedder: search.embedder.modelId } : {}),
      },
      // In the split's order, whatever order the searches finished in, so the fit is reproducible.
      samples: queries.flatMap((q) => byQuery.get(q.id) ?? []),
    };
  } finally {
    await database.close();
  }
}

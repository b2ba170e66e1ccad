import { readFileSync, writeFileSync } from 'node:fs';
import { RANKING_LEARNERS, crossValidateFit, fitRankingModel, modelImportance } from '@lumina/eval';
import type { RankingFitSpec, RankingLearner } from '@lumina/eval';
import { DEFAULT_LAMBDAMART_FIT, DEFAULT_LTR_FIT, LTR_FEATURES } from '@lumina/rag';
import type { LtrFeature } from '@lumina/rag';
import { DEFAULT_SETTINGS } from '@lumina/shared';
import { loadEnv } from '../config/load-env';
import type { RecordedSamples } from '../modules/evaluation/suites/rerank-features.service';
import { flags, nonNegativeNumber, parseFlags, positiveInt, positiveNumber, UsageError } from './cli-args';
import { envChunking, evalDbDir, loadEvalDataset, queryLimitOf } from './command-context';
import { readRerankFeatures } from './read-rerank-features';

export const RERANK_USAGE = `usage:
  npm run eval -- --suite rerank --dataset <beir-dir> --split train --fit <model.json> --version <name>
                  [--candidate-k 30] [--features a,b,…] [--dense] [--cv 5] [--cv-by-document]
                  [--learner linear|lambdamart]
                  [--l2 1] [--seed 1] [--max-pairs 300] [--objective ranknet|ndcg]      (linear)
                  [--trees 200] [--learning-rate 0.05] [--depth 4] [--min-leaf 200]   (lambdamart)
                  [--samples <samples.json>] [--from-samples <samples.json>]
                  [--limit-queries N] [--concurrency 2] [--db-dir <dir>]

Fits the learned reranker on a BEIR split (use TRAIN, never the split you report on): every judged query
is searched the way the app searches (BM25, the original query), the features of its candidateK
candidates are read from the index exactly as the reranker will read them, and a model is fitted on the
judged relevance of each candidate's document: a linear model fitted pairwise (the default), or
LambdaMART's gradient-boosted trees. Writes a versioned model (features, weights or trees, provenance);
RERANK_MODEL_FILE makes the server rerank with it, and npm run eval -- --rerank-model <model.json>
evaluates it.

--dense embeds the corpus and each query (EMBEDDINGS_* configure the embedder) so that the dense
features (the query's cosine to each candidate) are read too; without it they are 0 and a fit gives them
no weight. --cv k prints k-fold cross-validated nDCG@10 over the candidates (the search's order against
reranked, paired test): for a bank without a split, or to choose options on the train split.
--cv-by-document keeps queries that share a relevant document in one fold, so the held-out queries ask
about documents the fit was never judged on (no credit for remembering documents). --objective ndcg
refines the linear fit by coordinate ascent on the fitting queries' nDCG@10. --samples writes the
features read; --from-samples fits on such a file without searching again.`;

const FLAGS = flags({
  string: 'dataset fit version features cv samples from-samples limit-queries db-dir',
  boolean: 'help dense cv-by-document',
  defaults: {
    split: 'train',
    learner: 'linear',
    trees: String(DEFAULT_LAMBDAMART_FIT.trees),
    'learning-rate': String(DEFAULT_LAMBDAMART_FIT.learningRate),
    depth: String(DEFAULT_LAMBDAMART_FIT.maxDepth),
    'min-leaf': String(DEFAULT_LAMBDAMART_FIT.minLeafRows),
    'candidate-k': String(DEFAULT_SETTINGS.candidateK),
    l2: String(DEFAULT_LTR_FIT.l2),
    seed: String(DEFAULT_LTR_FIT.seed),
    'max-pairs': String(DEFAULT_LTR_FIT.maxPairsPerQuery),
    objective: 'ranknet',
    concurrency: '2',
  },
});

export async function runRerankCli(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, FLAGS);
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
  const limit = queryLimitOf(values['limit-queries']);
  const concurrency = positiveInt(values.concurrency, '--concurrency');

  const read = values['from-samples']
    ? loadSamples(values['from-samples'])
    : await readSamples(datasetDir!, values.split, limit, values['db-dir'], {
        candidateK,
        concurrency,
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

function loadSamples(file: string): RecordedSamples {
  const read = JSON.parse(readFileSync(file, 'utf8')) as RecordedSamples;
  if (JSON.stringify(read.features) !== JSON.stringify(LTR_FEATURES))
    throw new UsageError(`${file} holds other features than this version reads; read them again`);
  return read;
}

/** Search every judged query of the split and read its candidates' features, in the eval command's index. */
async function readSamples(
  datasetDir: string,
  split: string,
  limit: number | undefined,
  dbDir: string | undefined,
  options: { candidateK: number; concurrency: number; dense: boolean; env: ReturnType<typeof loadEnv> },
): Promise<RecordedSamples> {
  const { name, dataset, queries } = await loadEvalDataset(datasetDir, split, limit);
  const chunking = envChunking(options.env);
  // The retrieval eval's database for the same chunking, so the index is shared with it.
  return readRerankFeatures({
    ...options,
    dbDir: dbDir ?? evalDbDir(name, chunking),
    dataset,
    datasetName: name,
    split,
    queries,
    chunking,
  });
}

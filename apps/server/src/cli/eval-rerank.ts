import { writeFileSync } from 'node:fs';
import {
  RANKING_LEARNERS,
  crossValidateFit,
  fitRankingModel,
  formatCrossValidation,
  formatFitTraining,
  formatImportance,
  rankingFitSpec,
  recordedFitSource,
  selectLtrFeatures,
} from '@lumina/eval';
import type { RankingFitOptions } from '@lumina/eval';
import { DEFAULT_LAMBDAMART_FIT, DEFAULT_LTR_FIT, LTR_FEATURES } from '@lumina/rag';
import { DEFAULT_SETTINGS } from '@lumina/shared';
import { loadEnv } from '../config/load-env';
import { flags, nonNegativeNumber, parseFlags, positiveInt, positiveNumber, UsageError } from './cli-args';
import { queryLimitOf } from './command-context';
import { loadSamples, readSamples } from './read-rerank-features';

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
  if (values.help) return console.log(RERANK_USAGE);
  const env = loadEnv();
  const datasetDir = values.dataset ?? env.EVAL_DATASET_DIR;
  if (!datasetDir && !values['from-samples'])
    throw new UsageError('--dataset (or EVAL_DATASET_DIR) or --from-samples is required');
  if (!values.fit && !values.cv && !values.samples)
    throw new UsageError('--fit <model.json>, --cv <folds> or --samples <file> is required');
  if (values.fit && !values.version)
    throw new UsageError('--version <name> is required: every trace names it');
  const { features, unknown } = selectLtrFeatures(values.features);
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
  const { learner, objective } = values;
  if (learner !== 'linear' && learner !== 'lambdamart')
    throw new UsageError(`--learner must be ${RANKING_LEARNERS.join(' or ')}`);
  if (objective !== 'ranknet' && objective !== 'ndcg')
    throw new UsageError('--objective must be ranknet or ndcg');
  const options: RankingFitOptions =
    learner === 'linear'
      ? {
          learner,
          objective,
          features,
          l2: nonNegativeNumber(values.l2, '--l2'),
          seed: positiveInt(values.seed, '--seed'),
          maxPairsPerQuery: positiveInt(values['max-pairs'], '--max-pairs'),
        }
      : {
          learner,
          features,
          trees: positiveInt(values.trees, '--trees'),
          learningRate: positiveNumber(values['learning-rate'], '--learning-rate'),
          maxDepth: positiveInt(values.depth, '--depth'),
          minLeafRows: positiveInt(values['min-leaf'], '--min-leaf'),
        };
  const spec = rankingFitSpec(options, recordedFitSource(read, values.version));
  if (values.cv) {
    const byDocument = values['cv-by-document'];
    const folds = positiveInt(values.cv, '--cv');
    const cv = crossValidateFit(read.samples, spec, folds, positiveInt(values.seed, '--seed'), byDocument);
    console.log(formatCrossValidation(cv, read, byDocument));
  }
  if (!values.fit) return;
  const started = Date.now();
  const model = fitRankingModel(read.samples, spec);
  console.error(formatFitTraining(model, Date.now() - started));
  console.log(formatImportance(model).join('\n'));
  writeFileSync(values.fit, `${JSON.stringify(model, null, 2)}\n`);
  console.error(`model ${model.version} written to ${values.fit}`);
}

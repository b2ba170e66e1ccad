import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { beirSubset, gateFitSubset, gateVerdict, loadBeirDataset, updatedGateBaseline } from '@lumina/eval';
import type { GateBaseline, GateFitted } from '@lumina/eval';
import type { Env } from '../config/env.schema';
import { loadEnv } from '../config/load-env';
import { nodeDatasetFiles } from '../files/node-dataset-files';
import { MINILM_L6_V2_INT8 } from '../providers/local-models/catalogue';
import { modelState } from '../providers/local-models/model-files';
import { RetrievalGate } from '../modules/evaluation/suites/retrieval-gate.service';
import { parseFlags } from './cli-args';
import { withEvalDatabase } from './command-context';
import { STDERR_PROGRESS } from './progress';

/**
 * Retrieval regression gate: a fixed subset of a BEIR dataset (N test queries, all their judged
 * documents, seeded distractors), indexed from scratch with the app's code, ranked with each ranker the
 * baseline names (BM25, hybrid). With the baseline's `fit`, it first fits the learned reranker on a seeded
 * subset of the train split (never a gated query) and also holds BM25 reranked by it (`bm25+ltr`, over the
 * app's candidateK). The baseline names the embedder it was measured with (`embedder`, default USE-lite), and
 * the gate runs with it whatever EMBEDDINGS_PROVIDER says. Fails (exit 1) when an nDCG@10 falls below the committed baseline minus its tolerance.
 *   --dataset <scifact dir>   the SciFact gate (default: EVAL_DATASET_DIR)
 *   --xquad <xquad dir>       the XQuAD gates instead: Chinese, German and Hindi, BM25 (default:
 *                             XQUAD_DATASET_DIR with --suite xquad); the folder holds xquad-zh/, xquad-de/, xquad-hi/
 *   --nfcorpus <dir>          the NFCorpus gate instead: English medical abstracts, its dev split, BM25
 *                             (default: NFCORPUS_DATASET_DIR with --suite nfcorpus); the train+dev folder
 */
const DEFAULT_BASELINE = 'libs/eval/baselines/scifact-gate.json';
const XQUAD_BASELINES = [
  'libs/eval/baselines/xquad-zh-gate.json',
  'libs/eval/baselines/xquad-de-gate.json',
  'libs/eval/baselines/xquad-hi-gate.json',
];
const NFCORPUS_BASELINE = 'libs/eval/baselines/nfcorpus-dev-gate.json';
const SUITES = ['scifact', 'xquad', 'nfcorpus'];

async function main(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, {
    dataset: { type: 'string' },
    baseline: { type: 'string', default: DEFAULT_BASELINE },
    xquad: { type: 'string' },
    nfcorpus: { type: 'string' },
    suite: { type: 'string', default: 'scifact' },
    'update-baseline': { type: 'boolean', default: false },
  });
  // Every index is built from scratch in a throwaway embedded database, whatever DATABASE_URL says: a
  // shared database would keep the index between runs, and let the fit's train documents into the gate's.
  const env: Env = { ...loadEnv(), DATABASE_URL: undefined, DATABASE_READ_URL: undefined };
  const update = values['update-baseline'];
  if (!SUITES.includes(values.suite)) {
    throw new Error(`--suite must be ${SUITES.join(', ')}, got "${values.suite}"`);
  }
  const gates: { dir: string; baselinePath: string }[] = [];
  if (values.nfcorpus !== undefined || values.suite === 'nfcorpus') {
    const nfcorpusDir = values.nfcorpus ?? env.NFCORPUS_DATASET_DIR;
    if (!nfcorpusDir)
      throw new Error('--nfcorpus (or NFCORPUS_DATASET_DIR with --suite nfcorpus) is required');
    gates.push({ dir: nfcorpusDir, baselinePath: NFCORPUS_BASELINE });
  } else if (values.xquad !== undefined || values.suite === 'xquad') {
    const xquadDir = values.xquad ?? env.XQUAD_DATASET_DIR;
    if (!xquadDir) throw new Error('--xquad (or XQUAD_DATASET_DIR with --suite xquad) is required');
    for (const path of XQUAD_BASELINES)
      gates.push({ dir: join(xquadDir, readBaseline(path).dataset), baselinePath: path });
  } else {
    const datasetDir = values.dataset ?? env.EVAL_DATASET_DIR;
    if (!datasetDir) throw new Error('--dataset (or EVAL_DATASET_DIR) is required');
    gates.push({ dir: datasetDir, baselinePath: values.baseline });
  }
  let failed = false;
  for (const gate of gates) failed = !(await runGate(env, gate.dir, gate.baselinePath, update)) || failed;
  if (failed) {
    console.error('nDCG@10 fell below the committed baseline: retrieval quality regressed.');
    process.exit(1);
  }
}

function readBaseline(path: string): GateBaseline {
  return JSON.parse(readFileSync(path, 'utf8')) as GateBaseline;
}

/** One gate: true when every ranker holds its baseline (or the baseline was rewritten). */
async function runGate(
  baseEnv: Env,
  datasetDir: string,
  baselinePath: string,
  update: boolean,
): Promise<boolean> {
  const baseline = readBaseline(baselinePath);
  const env = gateEnv(baseEnv, baseline);
  const datasetName = basename(resolve(datasetDir));
  if (datasetName !== baseline.dataset) {
    throw new Error(`the baseline is for ${baseline.dataset}, the dataset folder is ${datasetName}`);
  }
  const dataset = beirSubset(
    await loadBeirDataset(nodeDatasetFiles, datasetDir, baseline.split ?? 'test'),
    baseline.subset,
  );
  console.error(
    `gate subset: ${dataset.queries.size} queries, ${dataset.corpus.size} documents (seed ${baseline.subset.seed}), ` +
      `embedder ${env.EMBEDDINGS_PROVIDER}`,
  );
  let fitted: GateFitted | null = null;
  if (baseline.fit) {
    // The fit's own throwaway database: its train documents never enter the gated index.
    const { fit, chunking } = baseline;
    const started = Date.now();
    const train = gateFitSubset(await loadBeirDataset(nodeDatasetFiles, datasetDir, fit.split), dataset, fit);
    console.error(
      `fit subset (${fit.split}): ${train.queries.size} queries, ${train.corpus.size} documents (seed ${fit.subset.seed})`,
    );
    const model = await onGate(env, (gate) =>
      gate.fitReranker({ train, datasetName, fit, chunking }, STDERR_PROGRESS),
    );
    fitted = { model, seconds: (Date.now() - started) / 1000 };
  }
  const { measured, blocks } = await onGate(env, (gate) =>
    gate.measure({ dataset, datasetName, baseline, fitted }, STDERR_PROGRESS),
  );
  for (const block of blocks) console.log(`${block}\n`);
  if (update) {
    const updated = updatedGateBaseline(baseline, measured);
    writeFileSync(baselinePath, `${JSON.stringify(updated, null, 2)}\n`);
    console.log(`baseline updated: ${JSON.stringify(updated.ndcgAt10)}`);
    return true;
  }
  const verdict = gateVerdict(datasetName, baseline, measured);
  console.log(verdict.lines.join('\n'));
  return verdict.passed;
}

/** The environment with the embedder the baseline was measured with; its files must be there. */
function gateEnv(env: Env, baseline: GateBaseline): Env {
  const embedder = baseline.embedder ?? 'local';
  if (embedder === 'minilm') {
    const state = modelState(env.MODELS_DIR, MINILM_L6_V2_INT8);
    if (!state.ready) {
      throw new Error(
        `the ${baseline.dataset} gate was measured with ${MINILM_L6_V2_INT8.id}, which is not in ${state.dir}: ` +
          'run npm run models:fetch',
      );
    }
  }
  return { ...env, EMBEDDINGS_PROVIDER: embedder, embeddingsFallback: undefined };
}

/** Runs `work` on the gate's service, in a core context over a throwaway in-memory database. */
function onGate<T>(env: Env, work: (gate: RetrievalGate) => Promise<T>): Promise<T> {
  return withEvalDatabase(env, 'memory://', (app) => work(app.get(RetrievalGate)));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

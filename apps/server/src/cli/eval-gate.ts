import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { beirSubset, formatReport, loadBeirDataset, selectQueriesWithQrels } from '@lumina/eval';
import type { Env } from '../config/env.schema';
import { loadEnv } from '../config/load-env';
import { evaluateBeir } from './evaluate-beir';
import { nodeDatasetFiles } from '../files/node-dataset-files';

/**
 * Retrieval regression gate: a fixed subset of a BEIR dataset (N test queries, all their judged
 * documents, seeded distractors), indexed from scratch with the app's code, ranked with each ranker the
 * baseline names (BM25, hybrid). Fails (exit 1) when an nDCG@10 falls below the committed baseline
 * minus its tolerance.
 *   --dataset <scifact dir>   the SciFact gate (default: EVAL_DATASET_DIR)
 *   --xquad <xquad dir>       the XQuAD gates instead: Chinese and German, BM25 (default: XQUAD_DATASET_DIR
 *                             with --suite xquad); the folder holds xquad-zh/ and xquad-de/
 */
interface GateBaseline {
  dataset: string;
  subset: { queries: number; distractors: number; seed: number };
  chunking: { unit: 'chunk'; maxChars: number; overlapChars: number };
  tolerance: number;
  ndcgAt10: Partial<Record<GateRanker, number>>;
}

type GateRanker = 'bm25' | 'hybrid';

const DEFAULT_BASELINE = 'libs/eval/baselines/scifact-gate.json';
const XQUAD_BASELINES = ['libs/eval/baselines/xquad-zh-gate.json', 'libs/eval/baselines/xquad-de-gate.json'];

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      baseline: { type: 'string', default: DEFAULT_BASELINE },
      xquad: { type: 'string' },
      suite: { type: 'string', default: 'scifact' },
      'update-baseline': { type: 'boolean', default: false },
    },
  });
  const env = loadEnv();
  const update = values['update-baseline'];
  if (values.suite !== 'scifact' && values.suite !== 'xquad') {
    throw new Error(`--suite must be scifact or xquad, got "${values.suite}"`);
  }
  let failed = false;
  if (values.xquad !== undefined || values.suite === 'xquad') {
    const xquadDir = values.xquad ?? env.XQUAD_DATASET_DIR;
    if (!xquadDir) throw new Error('--xquad (or XQUAD_DATASET_DIR with --suite xquad) is required');
    for (const path of XQUAD_BASELINES) {
      const baseline = readBaseline(path);
      failed = !(await runGate(env, join(xquadDir, baseline.dataset), baseline, path, update)) || failed;
    }
  } else {
    const datasetDir = values.dataset ?? env.EVAL_DATASET_DIR;
    if (!datasetDir) throw new Error('--dataset (or EVAL_DATASET_DIR) is required');
    failed = !(await runGate(env, datasetDir, readBaseline(values.baseline), values.baseline, update));
  }
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
  env: Env,
  datasetDir: string,
  baseline: GateBaseline,
  baselinePath: string,
  update: boolean,
): Promise<boolean> {
  const datasetName = basename(resolve(datasetDir));
  if (datasetName !== baseline.dataset) {
    throw new Error(`the baseline is for ${baseline.dataset}, the dataset folder is ${datasetName}`);
  }

  const rankers = (['bm25', 'hybrid'] as const).filter((ranker) => baseline.ndcgAt10[ranker] !== undefined);
  const full = await loadBeirDataset(nodeDatasetFiles, datasetDir, 'test');
  const dataset = beirSubset(full, baseline.subset);
  console.error(
    `gate subset: ${dataset.queries.size} queries, ${dataset.corpus.size} documents (seed ${baseline.subset.seed})`,
  );
  const reports = await evaluateBeir({
    env,
    dataset,
    datasetName,
    split: 'test',
    queries: selectQueriesWithQrels(dataset),
    chunking: baseline.chunking,
    dbDir: 'memory://',
    exactDense: true,
    concurrency: 2,
    runs: rankers.map((ranker) => ({ ranker, expansion: false, hyde: false })),
  });
  const measured = new Map(rankers.map((ranker, i) => [ranker, reports[i].metrics['ndcg@10']]));
  for (const report of reports) console.log(`${formatReport(report)}\n`);

  if (update) {
    const updated: GateBaseline = {
      ...baseline,
      ndcgAt10: Object.fromEntries(rankers.map((ranker) => [ranker, round(measured.get(ranker)!)])),
    };
    writeFileSync(baselinePath, `${JSON.stringify(updated, null, 2)}\n`);
    console.log(`baseline updated: ${JSON.stringify(updated.ndcgAt10)}`);
    return true;
  }

  let passed = true;
  console.log(`gate ${datasetName}\nranker     measured  baseline  floor     verdict`);
  for (const ranker of rankers) {
    const expected = baseline.ndcgAt10[ranker]!;
    const floor = expected - baseline.tolerance;
    const value = measured.get(ranker)!;
    const ok = value >= floor;
    passed &&= ok;
    console.log(
      `${ranker.padEnd(10)} ${value.toFixed(4)}    ${expected.toFixed(4)}    ` +
        `${floor.toFixed(4)}    ${ok ? 'ok' : 'REGRESSION'}`,
    );
  }
  return passed;
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

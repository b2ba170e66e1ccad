import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { beirSubset, formatReport, loadBeirDataset, selectQueriesWithQrels } from '@lumina/eval';
import { loadEnv } from '../config/load-env';
import { evaluateBeir } from './evaluate-beir';

/**
 * Retrieval regression gate: a fixed subset of a BEIR dataset (N test queries, all their judged
 * documents, seeded distractors), indexed from scratch with the app's code, ranked with BM25 and with
 * hybrid. Fails (exit 1) when either nDCG@10 falls below the committed baseline minus its tolerance.
 */
interface GateBaseline {
  dataset: string;
  subset: { queries: number; distractors: number; seed: number };
  chunking: { unit: 'chunk'; maxChars: number; overlapChars: number };
  tolerance: number;
  ndcgAt10: { bm25: number; hybrid: number };
}

const DEFAULT_BASELINE = 'libs/eval/baselines/scifact-gate.json';

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      baseline: { type: 'string', default: DEFAULT_BASELINE },
      'update-baseline': { type: 'boolean', default: false },
    },
  });
  const env = loadEnv();
  const datasetDir = values.dataset ?? env.EVAL_DATASET_DIR;
  if (!datasetDir) throw new Error('--dataset (or EVAL_DATASET_DIR) is required');
  const baseline = JSON.parse(readFileSync(values.baseline, 'utf8')) as GateBaseline;
  const datasetName = basename(resolve(datasetDir));
  if (datasetName !== baseline.dataset) {
    throw new Error(`the baseline is for ${baseline.dataset}, the dataset folder is ${datasetName}`);
  }

  const full = await loadBeirDataset(datasetDir, 'test');
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
    runs: [
      { ranker: 'bm25', expansion: false, hyde: false },
      { ranker: 'hybrid', expansion: false, hyde: false },
    ],
  });
  const measured = { bm25: reports[0].metrics['ndcg@10'], hybrid: reports[1].metrics['ndcg@10'] };
  for (const report of reports) console.log(`${formatReport(report)}\n`);

  if (values['update-baseline']) {
    const updated: GateBaseline = {
      ...baseline,
      ndcgAt10: { bm25: round(measured.bm25), hybrid: round(measured.hybrid) },
    };
    writeFileSync(values.baseline, `${JSON.stringify(updated, null, 2)}\n`);
    console.log(`baseline updated: ${JSON.stringify(updated.ndcgAt10)}`);
    return;
  }

  let failed = false;
  console.log('gate       measured  baseline  floor     verdict');
  for (const ranker of ['bm25', 'hybrid'] as const) {
    const floor = baseline.ndcgAt10[ranker] - baseline.tolerance;
    const ok = measured[ranker] >= floor;
    failed ||= !ok;
    console.log(
      `${ranker.padEnd(10)} ${measured[ranker].toFixed(4)}    ${baseline.ndcgAt10[ranker].toFixed(4)}    ` +
        `${floor.toFixed(4)}    ${ok ? 'ok' : 'REGRESSION'}`,
    );
  }
  if (failed) {
    console.error('nDCG@10 fell below the committed baseline: retrieval quality regressed.');
    process.exit(1);
  }
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

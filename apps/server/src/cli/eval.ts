import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  compareReports,
  formatComparison,
  formatReport,
  loadBeirDataset,
  selectQueriesWithQrels,
} from '@lumina/eval';
import type { RetrievalReport } from '@lumina/eval';
import type { ChunkingSettings } from '@lumina/rag';
import { RANKERS } from '@lumina/shared';
import type { Ranker } from '@lumina/shared';
import { loadEnv } from '../config/load-env';
import { runAdaptiveCli } from './eval-adaptive';
import { runAnswerabilityCli } from './eval-answerability';
import { runAnswersCli, splitSuite } from './eval-answers';
import { runRerankCli } from './eval-rerank';
import { evaluateBeir } from './evaluate-beir';
import { nonNegativeInt, nonNegativeNumber, positiveInt, runCommand, UsageError } from './cli-args';
import { nodeDatasetFiles } from '../files/node-dataset-files';

const USAGE = `usage:
  npm run eval -- --dataset <beir-dir> [--split test] [--ranker dense|bm25|hybrid] [--expansion] [--hyde]
                  [--unit chunk|document] [--chunk-size 1200 --overlap 200] [--limit-queries N] [--json <file>]
                  [--db-dir <dir>] [--dense-weight W] [--exact] [--concurrency N] [--top-k N --candidate-k N]
                  [--rerank] [--rerank-model <model.json>]
  npm run eval -- --compare <a.json> <b.json>
  npm run eval -- --suite answers ...   (answer quality with a judge model; --suite answers --help)
  npm run eval -- --suite answerability ...   (refusals and answer support, offline; --suite answerability --help)
  npm run eval -- --suite rerank ...   (fit the learned reranker on a train split; --suite rerank --help)
  npm run eval -- --suite adaptive ...   (fit or evaluate adaptive expansion and HyDE; --suite adaptive --help)

--rerank turns enableRerank on (the reranker the environment configures); --rerank-model <model.json> also
sets RERANK_MODEL_FILE for the run (a fitted learned reranker).

--dataset defaults to EVAL_DATASET_DIR. Without DATABASE_URL the index lives in an embedded database under
--db-dir (default .data/eval/<dataset>-<unit>-<size>-<overlap>), reused by later runs.`;

async function main(args: string[]): Promise<void> {
  const { suite, rest: argv } = splitSuite(args);
  if (suite === 'answers') return runAnswersCli(argv);
  if (suite === 'answerability') return runAnswerabilityCli(argv);
  if (suite === 'rerank') return runRerankCli(argv);
  if (suite === 'adaptive') return runAdaptiveCli(argv);
  if (suite !== 'retrieval')
    throw new UsageError(
      `--suite must be retrieval, answers, answerability, rerank or adaptive, got "${suite}"`,
    );
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      dataset: { type: 'string' },
      split: { type: 'string', default: 'test' },
      ranker: { type: 'string', default: 'bm25' },
      expansion: { type: 'boolean', default: false },
      hyde: { type: 'boolean', default: false },
      unit: { type: 'string', default: 'chunk' },
      'chunk-size': { type: 'string' },
      overlap: { type: 'string' },
      'limit-queries': { type: 'string' },
      json: { type: 'string' },
      compare: { type: 'boolean', default: false },
      'db-dir': { type: 'string' },
      'dense-weight': { type: 'string' },
      'top-k': { type: 'string' },
      'candidate-k': { type: 'string' },
      exact: { type: 'boolean', default: false },
      rerank: { type: 'boolean', default: false },
      'rerank-model': { type: 'string' },
      concurrency: { type: 'string', default: '2' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (values.compare) {
    if (positionals.length !== 2) throw new UsageError('--compare takes two report files');
    const [a, b] = positionals.map((file) => JSON.parse(readFileSync(file, 'utf8')) as RetrievalReport);
    console.log(
      formatComparison(compareReports(a, b), describe(a, positionals[0]), describe(b, positionals[1])),
    );
    return;
  }

  const loaded = loadEnv();
  const env = values['rerank-model'] ? { ...loaded, RERANK_MODEL_FILE: values['rerank-model'] } : loaded;
  const datasetDir = values.dataset ?? env.EVAL_DATASET_DIR;
  if (!datasetDir) throw new UsageError('--dataset (or EVAL_DATASET_DIR) is required');
  const ranker = values.ranker as Ranker;
  if (!RANKERS.includes(ranker)) throw new UsageError(`--ranker must be one of ${RANKERS.join(', ')}`);
  if (values.unit !== 'chunk' && values.unit !== 'document')
    throw new UsageError('--unit must be chunk or document');
  const chunking: ChunkingSettings = {
    unit: values.unit,
    maxChars: positiveInt(values['chunk-size'] ?? String(env.CHUNK_MAX_CHARS), '--chunk-size'),
    overlapChars: nonNegativeInt(values.overlap ?? String(env.CHUNK_OVERLAP_CHARS), '--overlap'),
  };
  if (chunking.unit === 'document') chunking.overlapChars = 0;
  const limit = values['limit-queries'] ? positiveInt(values['limit-queries'], '--limit-queries') : undefined;

  const datasetName = basename(resolve(datasetDir));
  const dataset = await loadBeirDataset(nodeDatasetFiles, datasetDir, values.split);
  const queries = selectQueriesWithQrels(dataset).slice(0, limit);
  const dbDir =
    values['db-dir'] ??
    `.data/eval/${datasetName}-${chunking.unit}-${chunking.unit === 'chunk' ? `${chunking.maxChars}-${chunking.overlapChars}` : 'whole'}`;
  const [report] = await evaluateBeir({
    env,
    dataset,
    datasetName,
    split: values.split,
    queries,
    chunking,
    dbDir,
    exactDense: values.exact,
    concurrency: positiveInt(values.concurrency, '--concurrency'),
    runs: [
      {
        ranker,
        expansion: values.expansion,
        hyde: values.hyde,
        rerank: values.rerank || values['rerank-model'] !== undefined,
        denseWeight:
          values['dense-weight'] === undefined
            ? undefined
            : nonNegativeNumber(values['dense-weight'], '--dense-weight'),
        // A question-bank run with the same topK / candidateK scores the same (see the bank evaluation).
        topK: values['top-k'] === undefined ? undefined : positiveInt(values['top-k'], '--top-k'),
        candidateK:
          values['candidate-k'] === undefined
            ? undefined
            : positiveInt(values['candidate-k'], '--candidate-k'),
      },
    ],
  });
  console.log(formatReport(report));
  if (values.json) {
    writeFileSync(values.json, JSON.stringify(report, null, 2));
    console.error(`report written to ${values.json}`);
  }
}

function describe(report: RetrievalReport, file: string): string {
  return `${file} (${report.dataset}/${report.split}, ${report.ranker}, ${report.queries} queries)`;
}

runCommand(main, USAGE);

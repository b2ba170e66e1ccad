import { readFileSync } from 'node:fs';
import { compareReports, formatComparison, formatReport } from '@lumina/eval';
import type { RetrievalReport } from '@lumina/eval';
import type { ChunkingSettings } from '@lumina/rag';
import { loadEnv } from '../config/load-env';
import {
  flags,
  nonNegativeInt,
  nonNegativeNumber,
  parseFlags,
  positiveInt,
  rankerOf,
  UsageError,
} from './cli-args';
import { datasetDirOf, loadEvalDataset, queryLimitOf, writeReport } from './command-context';
import { evaluateBeir } from './evaluate-beir';

export const EVAL_USAGE = `usage:
  npm run eval -- --dataset <beir-dir> [--split test] [--ranker dense|bm25|hybrid] [--expansion] [--hyde]
                  [--unit chunk|document] [--chunk-size 1200 --overlap 200] [--limit-queries N] [--json <file>]
                  [--db-dir <dir>] [--dense-weight W] [--rrf-k K] [--fusion rrf|convex] [--exact] [--concurrency N] [--top-k N --candidate-k N]
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

const FLAGS = flags({
  string:
    'dataset chunk-size overlap limit-queries json db-dir dense-weight rrf-k fusion top-k candidate-k rerank-model',
  boolean: 'expansion hyde compare exact rerank help',
  defaults: { split: 'test', ranker: 'bm25', unit: 'chunk', concurrency: '2' },
});

/** The retrieval suite (the eval command without --suite): one ranker configuration over a BEIR split. */
export async function runRetrievalCli(argv: string[]): Promise<void> {
  const { values, positionals } = parseFlags(argv, FLAGS, true);
  if (values.help) return console.log(EVAL_USAGE);
  if (values.compare) {
    if (positionals.length !== 2) throw new UsageError('--compare takes two report files');
    const [a, b] = positionals.map((file) => JSON.parse(readFileSync(file, 'utf8')) as RetrievalReport);
    return console.log(
      formatComparison(compareReports(a, b), describe(a, positionals[0]), describe(b, positionals[1])),
    );
  }
  const loaded = loadEnv();
  const env = values['rerank-model'] ? { ...loaded, RERANK_MODEL_FILE: values['rerank-model'] } : loaded;
  const datasetDir = datasetDirOf(values.dataset, env);
  const ranker = rankerOf(values.ranker);
  if (values.unit !== 'chunk' && values.unit !== 'document')
    throw new UsageError('--unit must be chunk or document');
  const chunking: ChunkingSettings = {
    unit: values.unit,
    maxChars: positiveInt(values['chunk-size'] ?? String(env.CHUNK_MAX_CHARS), '--chunk-size'),
    overlapChars: nonNegativeInt(values.overlap ?? String(env.CHUNK_OVERLAP_CHARS), '--overlap'),
  };
  if (chunking.unit === 'document') chunking.overlapChars = 0;
  const { name, dataset, queries } = await loadEvalDataset(
    datasetDir,
    values.split,
    queryLimitOf(values['limit-queries']),
  );
  const size = chunking.unit === 'chunk' ? `${chunking.maxChars}-${chunking.overlapChars}` : 'whole';
  const optional = (flag: string | undefined, parse: (value: string) => number) =>
    flag === undefined ? undefined : parse(flag);
  const [report] = await evaluateBeir({
    env,
    dataset,
    datasetName: name,
    split: values.split,
    queries,
    chunking,
    dbDir: values['db-dir'] ?? `.data/eval/${name}-${chunking.unit}-${size}`,
    exactDense: values.exact,
    concurrency: positiveInt(values.concurrency, '--concurrency'),
    runs: [
      {
        ranker,
        expansion: values.expansion,
        hyde: values.hyde,
        rerank: values.rerank || values['rerank-model'] !== undefined,
        denseWeight: optional(values['dense-weight'], (v) => nonNegativeNumber(v, '--dense-weight')),
        rrfK: optional(values['rrf-k'], (v) => nonNegativeNumber(v, '--rrf-k')),
        fusion: fusionOf(values.fusion),
        // A question-bank run with the same topK / candidateK scores the same (see the bank evaluation).
        topK: optional(values['top-k'], (v) => positiveInt(v, '--top-k')),
        candidateK: optional(values['candidate-k'], (v) => positiveInt(v, '--candidate-k')),
      },
    ],
  });
  console.log(formatReport(report));
  if (values.json) writeReport(values.json, report);
}

function fusionOf(value: string | undefined): 'rrf' | 'convex' | undefined {
  if (value === undefined || value === 'rrf' || value === 'convex') return value;
  throw new UsageError('--fusion must be rrf or convex');
}

function describe(report: RetrievalReport, file: string): string {
  return `${file} (${report.dataset}/${report.split}, ${report.ranker}, ${report.queries} queries)`;
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBeirQueries } from '@lumina/eval';
import type { Env } from '../config/env.schema';
import { loadEnv } from '../config/load-env';
import { nodeDatasetFiles } from '../files/node-dataset-files';
import { AnswersSuite } from '../modules/evaluation/suites/answers-suite.service';
import { SILENT_PROGRESS } from '../modules/evaluation/suites/suite-progress';
import {
  JUDGE_PROMPT_VERSION,
  assertComparable,
  compareAnswersReports,
  formatAnswersComparison,
  formatAnswersReport,
} from '@lumina/eval';
import type { AnswersReport } from '@lumina/eval';
import { flags, fraction, integerAtLeast, parseFlags, rankerOf, UsageError } from './cli-args';
import { datasetDirOf, evalDbDir, loadEvalDataset, withEvalDatabase, writeReport } from './command-context';
import { STDERR_PROGRESS } from './progress';

export const ANSWERS_USAGE = `usage:
  npm run eval -- --suite answers --dataset <beir-dir> --judge-model <id> [--split test]
                  [--out-of-scope <queries.jsonl>] [--answer-model <id>] [--ranker bm25|dense|hybrid]
                  [--top-k 6] [--min-score 0] [--expansion] [--hyde] [--limit-queries N]
                  [--chunk-size 900 --overlap 180] [--db-dir <dir>] [--concurrency 2]
                  [--json <file>] [--baseline <answers-report.json>]
  npm run eval -- --suite answers --compare <a.json> <b.json>

Each question is answered by the chat's own answer code: the configured LLM (LLM_BASE_URL + LLM_MODEL, or
--answer-model on the same endpoint), or offline the extractive answerer. The judge is --judge-model on the
LLM_BASE_URL endpoint. In-scope questions are the split's queries with relevance judgments; out-of-scope
questions (the documents cannot answer them, a refusal is correct) come from --out-of-scope, by default
<dataset>/out-of-scope.jsonl when it exists, in queries.jsonl format. A baseline judged by another judge
model or judge prompt version is refused.`;

const FLAGS = flags({
  string:
    'dataset judge-model answer-model out-of-scope top-k min-score limit-queries chunk-size overlap db-dir json baseline',
  boolean: 'expansion hyde compare help',
  defaults: { split: 'test', ranker: 'bm25', concurrency: '2' },
});

/** The answers suite's command line (after `--suite answers`); `env` and `log` are for tests. */
export async function runAnswersCli(
  argv: string[],
  options: { env?: Env; log?: (line: string) => void; quiet?: boolean } = {},
): Promise<void> {
  const log = options.log ?? console.log;
  const quiet = options.quiet ?? false;
  try {
    const { values, positionals } = parseFlags(argv, FLAGS, true);
    if (values.help) return log(ANSWERS_USAGE);
    if (values.compare) {
      if (positionals.length !== 2) throw new UsageError('--compare takes two answers report files');
      const [a, b] = positionals.map(readReport);
      return log(formatAnswersComparison(compareAnswersReports(a, b), positionals[0], positionals[1]));
    }
    const env = options.env ?? loadEnv();
    const datasetDir = datasetDirOf(values.dataset, env);
    const judgeModel = values['judge-model'];
    if (!judgeModel) throw new UsageError('--judge-model is required: the model that grades the answers');
    if (!env.LLM_BASE_URL) throw new UsageError('the judge needs an LLM endpoint: set LLM_BASE_URL');
    const ranker = rankerOf(values.ranker);
    const baseline = values.baseline ? readReport(values.baseline) : undefined;
    // Fail before spending a single token on a run that could not be compared.
    if (baseline)
      assertComparable(baseline, {
        ...baseline,
        judge: { model: judgeModel, promptVersion: JUDGE_PROMPT_VERSION },
      });
    const chunking = {
      unit: 'chunk' as const,
      maxChars: integerAtLeast(values['chunk-size'] ?? String(env.CHUNK_MAX_CHARS), '--chunk-size', 1),
      overlapChars: integerAtLeast(values.overlap ?? String(env.CHUNK_OVERLAP_CHARS), '--overlap', 0),
    };
    const limit = values['limit-queries']
      ? integerAtLeast(values['limit-queries'], '--limit-queries', 1)
      : undefined;
    const { name, dataset, queries } = await loadEvalDataset(datasetDir, values.split, limit);
    const outOfScope = await outOfScopeQueries(
      values['out-of-scope'],
      join(datasetDir, 'out-of-scope.jsonl'),
    );
    const input = {
      dataset,
      datasetName: name,
      inScope: queries,
      outOfScope: outOfScope.slice(0, limit),
      chunking,
      settings: {
        ranker,
        enableQueryExpansion: values.expansion,
        enableHyDE: values.hyde,
        ...(values['top-k'] ? { topK: integerAtLeast(values['top-k'], '--top-k', 1) } : {}),
        ...(values['min-score'] ? { minScore: fraction(values['min-score'], '--min-score') } : {}),
      },
      judgeModel,
      answerModel: values['answer-model'],
      concurrency: integerAtLeast(values.concurrency, '--concurrency', 1),
    };
    const report = await withEvalDatabase(env, values['db-dir'] ?? evalDbDir(name, chunking), (app) =>
      app.get(AnswersSuite).run(input, quiet ? SILENT_PROGRESS : STDERR_PROGRESS),
    );
    log(formatAnswersReport(report));
    if (values.json) writeReport(values.json, report, quiet);
    if (baseline && values.baseline) {
      log('');
      log(formatAnswersComparison(compareAnswersReports(baseline, report), values.baseline, 'this run'));
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${ANSWERS_USAGE}`);
    process.exitCode = 2;
  }
}

/** The out-of-scope questions: --out-of-scope (which must exist), else the dataset's file if it has one. */
async function outOfScopeQueries(flag: string | undefined, fallback: string) {
  const file = flag ?? fallback;
  if (flag && !existsSync(file)) throw new UsageError(`--out-of-scope file not found: ${file}`);
  if (!existsSync(file)) return [];
  return [...(await readBeirQueries(file, nodeDatasetFiles)).entries()].map(([id, text]) => ({ id, text }));
}

function readReport(file: string): AnswersReport {
  let parsed: AnswersReport;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as AnswersReport;
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (parsed?.suite !== 'answers') throw new UsageError(`${file} is not an answers report`);
  return parsed;
}

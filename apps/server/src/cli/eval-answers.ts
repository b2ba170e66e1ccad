import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  AnswerJudge,
  JUDGE_PROMPT_VERSION,
  assertComparable,
  compareAnswersReports,
  formatAnswersComparison,
  formatAnswersReport,
  loadBeirDataset,
  readBeirQueries,
  selectQueriesWithQrels,
  summariseAnswers,
} from '@lumina/eval';
import type { AnswerItemResult, AnswersReport, BeirDataset, DatasetQuery } from '@lumina/eval';
import type { ChunkingSettings } from '@lumina/rag';
import { ANSWER_PROMPT_VERSION, EXTRACTIVE_ANSWERER_VERSION, generateAnswer } from '@lumina/rag';
import { RANKERS, resolveSettings } from '@lumina/shared';
import type { Ranker, SearchSettings } from '@lumina/shared';
import type { Env } from '../config/env.schema';
import { loadEnv } from '../config/load-env';
import { openDataSource } from '../app-data-source';
import { createChatModel } from '../providers/create-chat-model';
import { createEmbedder } from '../providers/create-embedder';
import { indexBeirCorpus } from './beir-index';
import { createEvalSearch } from './eval-search';
import { progressReporter } from './progress';
import { nodeDatasetFiles } from '../files/node-dataset-files';

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

export class AnswersUsageError extends Error {}

/** `--suite <name>` (or `--suite=<name>`) taken out of the arguments; 'retrieval' when absent. */
export function splitSuite(argv: readonly string[]): { suite: string; rest: string[] } {
  const rest: string[] = [];
  let suite = 'retrieval';
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--suite') suite = argv[++i] ?? '';
    else if (argv[i].startsWith('--suite=')) suite = argv[i].slice('--suite='.length);
    else rest.push(argv[i]);
  }
  return { suite, rest };
}

export interface AnswersEvalInput {
  env: Env;
  dataset: BeirDataset;
  datasetName: string;
  inScope: DatasetQuery[];
  outOfScope: DatasetQuery[];
  chunking: ChunkingSettings;
  /** Embedded database folder (ignored when DATABASE_URL is set); 'memory://' for a throwaway one. */
  dbDir: string;
  settings: Partial<SearchSettings>;
  judgeModel: string;
  /** The model that writes the answers (default LLM_MODEL); offline (no LLM_BASE_URL) the extractive answerer. */
  answerModel?: string;
  concurrency: number;
  quiet?: boolean;
}

/**
 * The answers suite: index the corpus with the app's code, answer every question with the chat's
 * generateAnswer (same search, same prompt, same refusal rules), then have the judge grade each answer
 * against the passages it cites.
 */
export async function runAnswersEval(input: AnswersEvalInput): Promise<AnswersReport> {
  const { env } = input;
  const judgeModel = createChatModel({ ...env, LLM_MODEL: input.judgeModel });
  if (!judgeModel) throw new AnswersUsageError('the judge needs an LLM endpoint: set LLM_BASE_URL');
  const judge = new AnswerJudge(judgeModel);
  const chatModel = createChatModel({ ...env, LLM_MODEL: input.answerModel ?? env.LLM_MODEL });
  const settings = resolveSettings(input.settings);
  const started = Date.now();

  const database = await openDataSource({ ...env, PGLITE_DATA_DIR: input.dbDir, PGLITE_PORT: 0 });
  const { dataSource } = database;
  try {
    const search = createEvalSearch(dataSource, env, createEmbedder(env));
    const needsVectors = settings.ranker !== 'bm25' || settings.minScore > 0;
    const silent = () => () => undefined;
    const indexed = await indexBeirCorpus(
      dataSource,
      input.dataset,
      input.datasetName,
      input.chunking,
      needsVectors ? search.embedder : null,
      input.quiet ? silent : progressReporter,
    );
    const deps = {
      search: (query: string, s: Partial<SearchSettings>) => search.search(query, s),
      chatModel,
      embedder: search.embedder,
    };

    const questions = [
      ...input.inScope.map((q) => ({ ...q, inScope: true })),
      ...input.outOfScope.map((q) => ({ ...q, inScope: false })),
    ];
    const report = input.quiet ? () => undefined : progressReporter('answering');
    let done = 0;
    const results = await mapPool(questions, input.concurrency, async (question) => {
      const result = await answerAndJudge(question, input.dataset, settings, deps, judge);
      report(++done, questions.length);
      return result;
    });

    const answerMs = results.map((r) => r.timings.answerMs);
    const judgeMs = results.map((r) => r.timings.judgeMs);
    return {
      suite: 'answers',
      dataset: input.datasetName,
      split: input.dataset.split,
      generator: chatModel ? 'llm' : 'extractive',
      answerModel: chatModel?.modelId ?? search.embedder.modelId,
      answerPromptVersion: chatModel ? ANSWER_PROMPT_VERSION : EXTRACTIVE_ANSWERER_VERSION,
      judge: { model: judge.modelId, promptVersion: judge.promptVersion },
      settings: { ...settings, chunking: input.chunking, weights: search.options.weights },
      questions: { inScope: input.inScope.length, outOfScope: input.outOfScope.length },
      metrics: summariseAnswers(results),
      counts: {
        failed: results.filter((r) => r.status !== 'complete').length,
        judgeErrors: results.filter((r) => r.judgeError !== null).length,
        withDroppedMarkers: results.filter((r) => r.droppedMarkers.length > 0).length,
        uncited: results.filter((r) => r.uncited).length,
      },
      timings: {
        indexSeconds: indexed.seconds,
        totalSeconds: Math.round((Date.now() - started) / 100) / 10,
        answerMsMean: mean(answerMs),
        judgeMsMean: mean(judgeMs),
      },
      perQuestion: results,
    };
  } finally {
    await database.close();
  }
}

async function answerAndJudge(
  question: DatasetQuery & { inScope: boolean },
  dataset: BeirDataset,
  settings: SearchSettings,
  deps: Parameters<typeof generateAnswer>[1],
  judge: AnswerJudge,
): Promise<AnswerItemResult> {
  const t0 = Date.now();
  const outcome = await generateAnswer({ question: question.text, history: [], settings }, deps);
  const answerMs = Date.now() - t0;
  const hits = outcome.search?.results ?? [];
  const citations = outcome.citations.map((c) => ({
    marker: c.marker,
    chunkId: c.chunkId,
    documentId: hits[c.marker - 1]?.externalId ?? c.documentId,
  }));
  const judgments = dataset.qrels.get(question.id);
  const answered = outcome.status === 'complete' && !outcome.notFound;
  const result: AnswerItemResult = {
    id: question.id,
    question: question.text,
    inScope: question.inScope,
    status: outcome.status,
    answer: outcome.text,
    notFound: outcome.notFound,
    generator: outcome.generator,
    citations,
    droppedMarkers: outcome.droppedMarkers,
    uncited: outcome.uncited,
    citesRelevantDocument:
      question.inScope && answered ? citations.some((c) => (judgments?.get(c.documentId) ?? 0) > 0) : null,
    judge: null,
    judgeError: null,
    error: outcome.error ? `${outcome.error.message} (${outcome.error.detail})` : null,
    timings: { answerMs, judgeMs: 0 },
  };
  if (!answered) return result;
  const t1 = Date.now();
  try {
    result.judge = await judge.judge(
      question.text,
      outcome.text,
      outcome.citations.map((c) => {
        const passage = outcome.passages[c.marker - 1];
        return { marker: c.marker, title: passage.title, text: passage.text };
      }),
    );
  } catch (error) {
    result.judgeError = error instanceof Error ? error.message : String(error);
  }
  result.timings.judgeMs = Date.now() - t1;
  return result;
}

/** The answers suite's command line (after `--suite answers`); `env` and `log` are for tests. */
export async function runAnswersCli(
  argv: string[],
  options: { env?: Env; log?: (line: string) => void; quiet?: boolean } = {},
): Promise<void> {
  try {
    await answersCli(
      argv,
      options.log ?? console.log,
      () => options.env ?? loadEnv(),
      options.quiet ?? false,
    );
  } catch (error) {
    if (!(error instanceof AnswersUsageError)) throw error;
    console.error(`${error.message}\n\n${ANSWERS_USAGE}`);
    process.exitCode = 2;
  }
}

async function answersCli(
  argv: string[],
  log: (line: string) => void,
  loadConfig: () => Env,
  quiet: boolean,
): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      dataset: { type: 'string' },
      split: { type: 'string', default: 'test' },
      'judge-model': { type: 'string' },
      'answer-model': { type: 'string' },
      'out-of-scope': { type: 'string' },
      ranker: { type: 'string', default: 'bm25' },
      'top-k': { type: 'string' },
      'min-score': { type: 'string' },
      expansion: { type: 'boolean', default: false },
      hyde: { type: 'boolean', default: false },
      'limit-queries': { type: 'string' },
      'chunk-size': { type: 'string' },
      overlap: { type: 'string' },
      'db-dir': { type: 'string' },
      concurrency: { type: 'string', default: '2' },
      json: { type: 'string' },
      baseline: { type: 'string' },
      compare: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    log(ANSWERS_USAGE);
    return;
  }
  if (values.compare) {
    if (positionals.length !== 2) throw new AnswersUsageError('--compare takes two answers report files');
    const [a, b] = positionals.map(readReport);
    log(formatAnswersComparison(compareAnswersReports(a, b), positionals[0], positionals[1]));
    return;
  }

  const env = loadConfig();
  const datasetDir = values.dataset ?? env.EVAL_DATASET_DIR;
  if (!datasetDir) throw new AnswersUsageError('--dataset (or EVAL_DATASET_DIR) is required');
  const judgeModel = values['judge-model'];
  if (!judgeModel)
    throw new AnswersUsageError('--judge-model is required: the model that grades the answers');
  if (!env.LLM_BASE_URL) throw new AnswersUsageError('the judge needs an LLM endpoint: set LLM_BASE_URL');
  const ranker = values.ranker as Ranker;
  if (!RANKERS.includes(ranker)) throw new AnswersUsageError(`--ranker must be one of ${RANKERS.join(', ')}`);
  const baseline = values.baseline ? readReport(values.baseline) : undefined;
  if (baseline) {
    // Fail before spending a single token on a run that could not be compared.
    assertComparable(baseline, {
      ...baseline,
      judge: { model: judgeModel, promptVersion: JUDGE_PROMPT_VERSION },
    });
  }

  const chunking: ChunkingSettings = {
    unit: 'chunk',
    maxChars: number(values['chunk-size'] ?? String(env.CHUNK_MAX_CHARS), '--chunk-size', 1),
    overlapChars: number(values.overlap ?? String(env.CHUNK_OVERLAP_CHARS), '--overlap', 0),
  };
  const limit = values['limit-queries'] ? number(values['limit-queries'], '--limit-queries', 1) : undefined;
  const dataset = await loadBeirDataset(nodeDatasetFiles, datasetDir, values.split);
  const datasetName = basename(resolve(datasetDir));
  const outOfScopeFile = values['out-of-scope'] ?? join(datasetDir, 'out-of-scope.jsonl');
  if (values['out-of-scope'] && !existsSync(outOfScopeFile)) {
    throw new AnswersUsageError(`--out-of-scope file not found: ${outOfScopeFile}`);
  }
  const outOfScope = existsSync(outOfScopeFile)
    ? [...(await readBeirQueries(outOfScopeFile, nodeDatasetFiles)).entries()].map(([id, text]) => ({
        id,
        text,
      }))
    : [];

  const report = await runAnswersEval({
    env,
    dataset,
    datasetName,
    inScope: selectQueriesWithQrels(dataset).slice(0, limit),
    outOfScope: outOfScope.slice(0, limit),
    chunking,
    dbDir:
      values['db-dir'] ?? `.data/eval/${datasetName}-chunk-${chunking.maxChars}-${chunking.overlapChars}`,
    settings: {
      ranker,
      enableQueryExpansion: values.expansion,
      enableHyDE: values.hyde,
      ...(values['top-k'] ? { topK: number(values['top-k'], '--top-k', 1) } : {}),
      ...(values['min-score'] ? { minScore: fraction(values['min-score'], '--min-score') } : {}),
    },
    judgeModel,
    answerModel: values['answer-model'],
    concurrency: number(values.concurrency, '--concurrency', 1),
    quiet,
  });
  log(formatAnswersReport(report));
  if (values.json) {
    writeFileSync(values.json, JSON.stringify(report, null, 2));
    if (!quiet) console.error(`report written to ${values.json}`);
  }
  if (baseline && values.baseline) {
    log('');
    log(formatAnswersComparison(compareAnswersReports(baseline, report), values.baseline, 'this run'));
  }
}

function readReport(file: string): AnswersReport {
  let parsed: AnswersReport;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as AnswersReport;
  } catch (error) {
    throw new AnswersUsageError(
      `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (parsed?.suite !== 'answers') throw new AnswersUsageError(`${file} is not an answers report`);
  return parsed;
}

function number(value: string, flag: string, min: number): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) {
    throw new AnswersUsageError(`${flag} must be an integer ≥ ${min}, got "${value}"`);
  }
  return parsed;
}

function fraction(value: string, flag: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0 || parsed > 1) {
    throw new AnswersUsageError(`${flag} must be a number in [0, 1], got "${value}"`);
  }
  return parsed;
}

function mean(values: number[]): number {
  return values.length ? Math.round(values.reduce((s, v) => s + v, 0) / values.length) : 0;
}

async function mapPool<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

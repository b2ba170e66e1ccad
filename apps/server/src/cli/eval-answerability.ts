import { readFileSync, writeFileSync } from 'node:fs';
import {
  beirLeaveGoldOut,
  formatAnswerabilityModel,
  formatAnswerabilityRun,
  gateFailures,
  samplesOf,
} from '@lumina/eval';
import type { AnswerabilitySource, AnswerabilitySourceRun, AnswerGate } from '@lumina/eval';
import {
  ANSWERABILITY_FEATURES,
  DEFAULT_FIT_OPTIONS,
  featureProbeModel,
  fitAnswerabilityModel,
  parseAnswerabilityModel,
} from '@lumina/rag';
import type { AnswerabilityFeature, AnswerabilityModel, ExtractiveOptions } from '@lumina/rag';
import type { SearchSettings } from '@lumina/shared';
import { loadEnv } from '../config/load-env';
import { withCoreContext } from '../core/core-context';
import { AnswerabilitySuite } from '../modules/evaluation/suites/answerability-suite.service';
import { loadDocsGold } from './answerability/docs-gold';
import { flags, parseFlags, positiveInt, rankerOf, UsageError } from './cli-args';
import { envChunking } from '../config/env-chunking';
import { loadEvalDataset, queryLimitOf, writeReport } from './command-context';
import { STDERR_PROGRESS } from './progress';

export const ANSWERABILITY_USAGE = `usage:
  npm run eval -- --suite answerability [--dataset <beir-dir> --split test --leave-gold-out 0.5 --seed 1]
                  [--docs <docs-gold-dir> --docs-split test] [--model <model.json>]
                  [--fit <model.json> --target 0.03 --l2 1 --version <name> [--fit-from <probe-report.json>]
                   [--features idfMassInCorpus,...,denseTop1]]
                  [--limit-queries N] [--extractive '{"maxSentences":2}'] [--ranker bm25|dense|hybrid]
                  [--json <report.json>] [--db-dir .data/eval/answerability] [--gate <bounds.json>]

Asks every question the way the chat does at default settings (--ranker changes the ranker), offline: the app's search, the
answerability decision, the extractive answer. Prints false refusals (in-scope refused), false answers
(out-of-scope answered) with 95% intervals, the AUC of the answerability score and answer support (the
answer cites a gold document and, in a docs set, quotes the gold sentence). A BEIR split becomes
answerable and unanswerable questions by leaving the gold out: a seeded share of the judged questions
lose their judged documents from the index. --fit fits a model on the sources given (use TRAIN splits)
and writes it; ANSWERABILITY_MODEL_FILE makes the server use it. --fit-from fits on the features of a
report written by a run with --model off (every feature recorded) instead of asking again. --features
names the features fitted (default: the lexical ones; denseTop1, the best passage's cosine, only means
something for a ranker that reads vectors).`;

const FLAGS = flags({
  string: 'dataset docs model fit version limit-queries json fit-from gate extractive ranker features',
  boolean: 'help',
  defaults: {
    split: 'test',
    'leave-gold-out': '0.5',
    seed: '1',
    'docs-split': 'test',
    target: String(DEFAULT_FIT_OPTIONS.target),
    l2: String(DEFAULT_FIT_OPTIONS.l2),
    'db-dir': '.data/eval/answerability',
  },
});

export async function runAnswerabilityCli(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, FLAGS);
  if (values.help) return console.log(ANSWERABILITY_USAGE);
  const env = loadEnv();
  const share = Number(values['leave-gold-out']);
  if (!(share > 0 && share < 1)) throw new UsageError('--leave-gold-out must be a share in (0, 1)');
  const limit = queryLimitOf(values['limit-queries']);
  const sources: AnswerabilitySource[] = [];
  const datasetDir = values.dataset ?? (values.docs ? undefined : env.EVAL_DATASET_DIR);
  if (datasetDir) {
    const { name, dataset } = await loadEvalDataset(datasetDir, values.split);
    sources.push(beirLeaveGoldOut(dataset, name, share, positiveInt(values.seed, '--seed'), limit));
  }
  if (values.docs) sources.push(loadDocsGold(values.docs, values['docs-split']));
  if (sources.length === 0 && !values['fit-from'])
    throw new UsageError('--dataset (or EVAL_DATASET_DIR) or --docs is required');
  // Extractive answerer options to try (e.g. '{"relativeFloor":0.8}'), on train splits only.
  const extractive = values.extractive ? (JSON.parse(values.extractive) as Partial<ExtractiveOptions>) : {};
  const chunking = envChunking(env);
  const settings: Partial<SearchSettings> =
    values.ranker === undefined ? {} : { ranker: rankerOf(values.ranker) };
  // Each source in its own embedded database, reused by later runs.
  const evaluate = async (model: AnswerabilityModel | null) => {
    const runs: AnswerabilitySourceRun[] = [];
    for (const source of sources) {
      const dbDir = `${values['db-dir']}/${source.name}-${chunking.maxChars}-${chunking.overlapChars}`;
      const own = { ...env, DATABASE_URL: undefined, PGLITE_DATA_DIR: dbDir };
      runs.push(
        await withCoreContext(own, (app) =>
          app.get(AnswerabilitySuite).run(source, chunking, model, STDERR_PROGRESS, extractive, settings),
        ),
      );
    }
    return runs;
  };

  if (values.fit) {
    const probe = values['fit-from']
      ? (JSON.parse(readFileSync(values['fit-from'], 'utf8')) as AnswerabilitySourceRun[])
      : await evaluate(featureProbeModel());
    const model = fitAnswerabilityModel(probe.flatMap(samplesOf), {
      ...DEFAULT_FIT_OPTIONS,
      ...(values.features ? { features: featuresOf(values.features) } : {}),
      version: values.version ?? `answerability-${new Date().toISOString().slice(0, 10)}`,
      target: Number(values.target),
      l2: Number(values.l2),
    });
    writeFileSync(values.fit, `${JSON.stringify(model, null, 2)}\n`);
    console.log(formatAnswerabilityModel(model));
    console.error(`model written to ${values.fit}`);
    return;
  }

  const model =
    values.model === 'off'
      ? featureProbeModel()
      : values.model
        ? parseAnswerabilityModel(JSON.parse(readFileSync(values.model, 'utf8')))
        : env.ANSWERABILITY_MODEL_FILE === 'off'
          ? featureProbeModel()
          : null; // the app's models: the environment's file, or the ones shipped per ranker and embedder
  const runs = await evaluate(model);
  for (const run of runs) console.log(formatAnswerabilityRun(run));
  if (values.json) writeReport(values.json, runs);
  if (values.gate) {
    const failures = gateFailures(runs, JSON.parse(readFileSync(values.gate, 'utf8')) as AnswerGate[]);
    if (failures.length > 0) throw new Error(`answerability gate failed:\n  ${failures.join('\n  ')}`);
    console.log(`answerability gate passed (${values.gate})`);
  }
}

function featuresOf(list: string): AnswerabilityFeature[] {
  const names = list.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(ANSWERABILITY_FEATURES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0)
    throw new UsageError(
      `--features: unknown ${unknown.join(', ')}; known: ${ANSWERABILITY_FEATURES.join(', ')}`,
    );
  return names as AnswerabilityFeature[];
}

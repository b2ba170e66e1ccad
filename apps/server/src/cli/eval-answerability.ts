import { readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { beirLeaveGoldOut, loadBeirDataset } from '@lumina/eval';
import type { AnswerabilitySource } from '@lumina/eval';
import {
  DEFAULT_FIT_OPTIONS,
  featureProbeModel,
  fitAnswerabilityModel,
  operatingPoint,
  parseAnswerabilityModel,
  rocAuc,
} from '@lumina/rag';
import type { AnswerabilityModel, ExtractiveOptions } from '@lumina/rag';
import type { RateInterval } from '@lumina/shared';
import { loadEnv } from '../config/load-env';
import { answerabilityModelFor } from '../modules/rag/answerability-model.loader';
import { loadDocsGold } from './answerability/docs-gold';
import { runAnswerabilitySource, samplesOf } from './answerability/evaluate-answerability';
import type { AnswerabilitySourceRun } from './answerability/evaluate-answerability';
import { positiveInt, UsageError } from './cli-args';
import { nodeDatasetFiles } from '../files/node-dataset-files';

export const ANSWERABILITY_USAGE = `usage:
  npm run eval -- --suite answerability [--dataset <beir-dir> --split test --leave-gold-out 0.5 --seed 1]
                  [--docs <docs-gold-dir> --docs-split test] [--model <model.json>]
                  [--fit <model.json> --target 0.03 --l2 1 --version <name> [--fit-from <probe-report.json>]]
                  [--limit-queries N] [--extractive '{"maxSentences":2}']
                  [--json <report.json>] [--db-dir .data/eval/answerability] [--gate <bounds.json>]

Asks every question the way the chat does at default settings, offline: the app's search, the
answerability decision, the extractive answer. Prints false refusals (in-scope refused), false answers
(out-of-scope answered) with 95% intervals, the AUC of the answerability score and answer support (the
answer cites a gold document and, in a docs set, quotes the gold sentence). A BEIR split becomes
answerable and unanswerable questions by leaving the gold out: a seeded share of the judged questions
lose their judged documents from the index. --fit fits a model on the sources given (use TRAIN splits)
and writes it; ANSWERABILITY_MODEL_FILE makes the server use it. --fit-from fits on the features of a
report written by a run with --model off (every feature recorded) instead of asking again.`;

export async function runAnswerabilityCli(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      split: { type: 'string', default: 'test' },
      'leave-gold-out': { type: 'string', default: '0.5' },
      seed: { type: 'string', default: '1' },
      docs: { type: 'string' },
      'docs-split': { type: 'string', default: 'test' },
      model: { type: 'string' },
      fit: { type: 'string' },
      target: { type: 'string', default: String(DEFAULT_FIT_OPTIONS.target) },
      l2: { type: 'string', default: String(DEFAULT_FIT_OPTIONS.l2) },
      version: { type: 'string' },
      'limit-queries': { type: 'string' },
      json: { type: 'string' },
      'fit-from': { type: 'string' },
      gate: { type: 'string' },
      extractive: { type: 'string' },
      'db-dir': { type: 'string', default: '.data/eval/answerability' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(ANSWERABILITY_USAGE);
    return;
  }
  const env = loadEnv();
  const share = Number(values['leave-gold-out']);
  if (!(share > 0 && share < 1)) throw new UsageError('--leave-gold-out must be a share in (0, 1)');
  const limit = values['limit-queries'] ? positiveInt(values['limit-queries'], '--limit-queries') : undefined;
  const sources: AnswerabilitySource[] = [];
  const datasetDir = values.dataset ?? (values.docs ? undefined : env.EVAL_DATASET_DIR);
  if (datasetDir) {
    const dataset = await loadBeirDataset(nodeDatasetFiles, datasetDir, values.split);
    const name = basename(resolve(datasetDir));
    sources.push(beirLeaveGoldOut(dataset, name, share, positiveInt(values.seed, '--seed'), limit));
  }
  if (values.docs) sources.push(loadDocsGold(values.docs, values['docs-split']));
  if (sources.length === 0 && !values['fit-from'])
    throw new UsageError('--dataset (or EVAL_DATASET_DIR) or --docs is required');
  // Extractive answerer options to try (e.g. '{"relativeFloor":0.8}'), on train splits only.
  const extractive = values.extractive ? (JSON.parse(values.extractive) as Partial<ExtractiveOptions>) : {};
  const chunking = {
    unit: 'chunk' as const,
    maxChars: env.CHUNK_MAX_CHARS,
    overlapChars: env.CHUNK_OVERLAP_CHARS,
  };

  const evaluate = async (model: AnswerabilityModel) => {
    const runs: AnswerabilitySourceRun[] = [];
    for (const source of sources)
      runs.push(await runAnswerabilitySource(env, source, chunking, model, values['db-dir'], extractive));
    return runs;
  };

  if (values.fit) {
    const probe = values['fit-from']
      ? (JSON.parse(readFileSync(values['fit-from'], 'utf8')) as AnswerabilitySourceRun[])
      : await evaluate(featureProbeModel());
    const model = fitAnswerabilityModel(probe.flatMap(samplesOf), {
      ...DEFAULT_FIT_OPTIONS,
      version: values.version ?? `answerability-${new Date().toISOString().slice(0, 10)}`,
      target: Number(values.target),
      l2: Number(values.l2),
    });
    writeFileSync(values.fit, `${JSON.stringify(model, null, 2)}\n`);
    console.log(formatModel(model));
    console.error(`model written to ${values.fit}`);
    return;
  }

  const model =
    values.model === 'off'
      ? featureProbeModel()
      : values.model
        ? parseAnswerabilityModel(JSON.parse(readFileSync(values.model, 'utf8')))
        : (answerabilityModelFor(env) ?? featureProbeModel());
  const runs = await evaluate(model);
  for (const run of runs) console.log(formatRun(run));
  if (values.json) {
    writeFileSync(values.json, JSON.stringify(runs, null, 2));
    console.error(`report written to ${values.json}`);
  }
  if (values.gate) {
    const failures = gateFailures(runs, JSON.parse(readFileSync(values.gate, 'utf8')) as AnswerGate[]);
    if (failures.length > 0) throw new Error(`answerability gate failed:\n  ${failures.join('\n  ')}`);
    console.log(`answerability gate passed (${values.gate})`);
  }
}

/** Bounds a source's answer figures must keep (the CI gate). */
export interface AnswerGate {
  source: string;
  maxInScopeRefused: number;
  maxOutOfScopeAnswered: number;
  minAuc: number;
  minSupport: number;
}

export function gateFailures(
  runs: readonly AnswerabilitySourceRun[],
  gates: readonly AnswerGate[],
): string[] {
  return gates.flatMap((gate) => {
    const run = runs.find((r) => r.source === gate.source);
    if (!run) return [`${gate.source}: not measured`];
    const m = run.metrics;
    const out: string[] = [];
    if (m.inScopeRefused.rate > gate.maxInScopeRefused)
      out.push(`${gate.source}: in-scope refused ${m.inScopeRefused.rate} > ${gate.maxInScopeRefused}`);
    if (m.outOfScopeAnswered.rate > gate.maxOutOfScopeAnswered)
      out.push(
        `${gate.source}: out-of-scope answered ${m.outOfScopeAnswered.rate} > ${gate.maxOutOfScopeAnswered}`,
      );
    if ((m.auc ?? 0) < gate.minAuc) out.push(`${gate.source}: AUC ${m.auc} < ${gate.minAuc}`);
    if (m.support.rate < gate.minSupport)
      out.push(`${gate.source}: answer support ${m.support.rate} < ${gate.minSupport}`);
    return out;
  });
}

function rate(r: RateInterval): string {
  const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
  return `${pct(r.rate)} [${pct(r.low)}, ${pct(r.high)}] (${r.count}/${r.items})`;
}

export function formatRun(run: AnswerabilitySourceRun): string {
  const m = run.metrics;
  const inScores = run.items.filter((i) => i.inScope && i.score !== null).map((i) => i.score!);
  const outScores = run.items.filter((i) => !i.inScope && i.score !== null).map((i) => i.score!);
  const curve = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    .map((t) => operatingPoint(inScores, outScores, t))
    .map(
      (p) =>
        `  ${p.threshold.toFixed(2)}  ${(p.inScopeRefused * 100).toFixed(1).padStart(5)}%  ${(p.outOfScopeAnswered * 100).toFixed(1).padStart(5)}%`,
    );
  return [
    `${run.source} — model ${run.modelVersion}`,
    `  in-scope refused      ${rate(m.inScopeRefused)}`,
    `  out-of-scope answered ${rate(m.outOfScopeAnswered)}`,
    `  AUC                   ${m.auc?.toFixed(3) ?? 'n/a'} (${rocAuc(inScores, outScores)?.toFixed(3) ?? 'n/a'})`,
    `  answer support        ${rate(m.support)}`,
    `  p50 search+decision ${run.timings.searchP50} ms, whole answer ${run.timings.answerP50} ms`,
    '  trade-off (threshold, in-scope refused, out-of-scope answered):',
    ...curve,
  ].join('\n');
}

function formatModel(model: AnswerabilityModel): string {
  return [
    `model ${model.version}: ${model.fittedOn.inScope} in-scope and ${model.fittedOn.outOfScope} out-of-scope questions from ${model.fittedOn.sources.join(', ')}`,
    `  AUC on the fitting data ${model.fittedOn.auc}; threshold ${model.threshold} for ≤ ${model.operatingPoint.target * 100}% false refusals`,
    `  → in-scope refused ${(model.operatingPoint.inScopeRefused * 100).toFixed(1)}%, out-of-scope answered ${(model.operatingPoint.outOfScopeAnswered * 100).toFixed(1)}%`,
    '  weights (standardised features):',
    ...model.features.map((f, i) => `    ${f.padEnd(18)} ${model.weights[i].toFixed(3)}`),
    `    ${'bias'.padEnd(18)} ${model.bias.toFixed(3)}`,
  ].join('\n');
}

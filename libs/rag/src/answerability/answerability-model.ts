import type { AnswerabilityVerdict } from '@lumina/shared';
import { ANSWERABILITY_FEATURES } from './answerability-features';
import type { AnswerabilityFeature, FeatureVector } from './answerability-features';
import { operatingPoint, rocAuc, thresholdForTarget, tradeOffCurve } from './calibration';
import type { OperatingPoint } from './calibration';
import { fitLogistic, sigmoid } from './logistic-regression';
import {
  checkStandardisedLogistic,
  logOdds,
  roundStored as round,
  standardise,
} from './standardised-logistic';
import type { StandardisedLogistic } from './standardised-logistic';

/**
 * A fitted answerability model: logistic regression over standardised features, and the operating point
 * chosen for a false-refusal target. Stored as JSON and versioned like a prompt; every verdict names it.
 */
export interface AnswerabilityModel extends StandardisedLogistic {
  version: string;
  /** P(answerable) under this is refused. */
  threshold: number;
  /** What the threshold was chosen for, and what it gave on the fitting data. */
  operatingPoint: { target: number; inScopeRefused: number; outOfScopeAnswered: number };
  fittedOn: { sources: string[]; inScope: number; outOfScope: number; auc: number | null };
  /** False refusals against false answers per threshold, on the fitting data. */
  curve: OperatingPoint[];
}

export interface LabelledFeatures {
  features: FeatureVector;
  inScope: boolean;
  /** Where the sample came from (a bank id, 'scifact:train'…), so each source can weigh the same. */
  source: string;
}

export interface FitAnswerabilityOptions {
  version: string;
  features: readonly AnswerabilityFeature[];
  /** Largest share of in-scope questions the operating point may refuse, on the fitting data. */
  target: number;
  l2: number;
}

export const DEFAULT_FIT_OPTIONS: Omit<FitAnswerabilityOptions, 'version'> = Object.freeze({
  features: ANSWERABILITY_FEATURES.filter((f) => f !== 'denseTop1' && f !== 'branchAgreement'),
  target: 0.03,
  l2: 1,
});

/** P(answerable) and each feature's contribution to the log-odds. */
export function scoreAnswerability(
  model: AnswerabilityModel,
  features: FeatureVector,
): { score: number; contributions: Record<string, number> } {
  const { z, contributions } = logOdds(model, features);
  return { score: sigmoid(z), contributions };
}

/** The decision: answer when P(answerable) reaches the model's threshold. */
export function decideAnswerability(
  model: AnswerabilityModel,
  features: FeatureVector,
  terms: AnswerabilityVerdict['terms'] = [],
): AnswerabilityVerdict {
  const { score, contributions } = scoreAnswerability(model, features);
  return {
    modelVersion: model.version,
    score: round(score),
    threshold: model.threshold,
    answerable: score >= model.threshold,
    features: Object.fromEntries(model.features.map((name) => [name, round(features[name])])),
    contributions,
    terms,
  };
}

/**
 * Fit a model on labelled questions: each source (bank, dataset split) weighs the same in total and,
 * within it, in-scope and out-of-scope questions weigh the same; the operating point is the highest
 * threshold that refuses at most `target` of the in-scope questions.
 */
export function fitAnswerabilityModel(
  samples: readonly LabelledFeatures[],
  options: FitAnswerabilityOptions,
): AnswerabilityModel {
  const inScope = samples.filter((s) => s.inScope);
  const outOfScope = samples.filter((s) => !s.inScope);
  if (inScope.length === 0 || outOfScope.length === 0) {
    throw new RangeError('fitting needs both in-scope and out-of-scope questions');
  }
  const names = [...options.features];
  const { mean, scale, rows } = standardise(
    samples.map((s) => s.features),
    names,
  );
  const groups = new Map<string, number>();
  for (const s of samples)
    groups.set(`${s.source}|${s.inScope}`, (groups.get(`${s.source}|${s.inScope}`) ?? 0) + 1);
  const sources = [...new Set(samples.map((s) => s.source))].sort();
  const weights = samples.map(
    (s) => samples.length / (2 * sources.length * groups.get(`${s.source}|${s.inScope}`)!),
  );
  const fit = fitLogistic(
    rows,
    samples.map((s) => (s.inScope ? 1 : 0)),
    { l2: options.l2 },
    weights,
  );
  const partial: AnswerabilityModel = {
    version: options.version,
    features: names,
    mean: mean.map(round),
    scale: scale.map(round),
    weights: fit.weights.map(round),
    bias: round(fit.bias),
    threshold: 0,
    operatingPoint: { target: options.target, inScopeRefused: 0, outOfScopeAnswered: 0 },
    fittedOn: { sources, inScope: inScope.length, outOfScope: outOfScope.length, auc: null },
    curve: [],
  };
  const scores = (items: readonly LabelledFeatures[]) =>
    items.map((s) => scoreAnswerability(partial, s.features).score);
  const inScores = scores(inScope);
  const outScores = scores(outOfScope);
  const threshold = round(thresholdForTarget(inScores, options.target));
  const point = operatingPoint(inScores, outScores, threshold);
  return {
    ...partial,
    threshold,
    operatingPoint: {
      target: options.target,
      inScopeRefused: round(point.inScopeRefused),
      outOfScopeAnswered: round(point.outOfScopeAnswered),
    },
    fittedOn: { ...partial.fittedOn, auc: round(rocAuc(inScores, outScores) ?? 0) },
    curve: tradeOffCurve(inScores, outScores).map((p) => ({
      threshold: p.threshold,
      inScopeRefused: round(p.inScopeRefused),
      outOfScopeAnswered: round(p.outOfScopeAnswered),
    })),
  };
}

/** A model read from JSON (a file, a stored fit), checked field by field; throws with the reason. */
export function parseAnswerabilityModel(value: unknown): AnswerabilityModel {
  const fail = (why: string): never => {
    throw new TypeError(`not an answerability model: ${why}`);
  };
  if (typeof value !== 'object' || value === null) return fail('not an object');
  const m = value as Record<string, unknown>;
  if (typeof m.version !== 'string' || !m.version) fail('version must be a non-empty string');
  checkStandardisedLogistic(m, fail);
  return value as AnswerabilityModel;
}

/**
 * A model that answers everything and records every feature: searching with it collects the data a
 * model is fitted on, through exactly the code path the app decides with.
 */
export function featureProbeModel(): AnswerabilityModel {
  const features = [...ANSWERABILITY_FEATURES];
  return {
    version: 'feature-probe',
    features,
    mean: features.map(() => 0),
    scale: features.map(() => 1),
    weights: features.map(() => 0),
    bias: 0,
    threshold: 0,
    operatingPoint: { target: 0, inScopeRefused: 0, outOfScopeAnswered: 1 },
    fittedOn: { sources: [], inScope: 0, outOfScope: 0, auc: null },
    curve: [],
  };
}

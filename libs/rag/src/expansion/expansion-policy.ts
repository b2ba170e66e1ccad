import { ANSWERABILITY_FEATURES } from '../answerability/answerability-features';
import type { AnswerabilityFeature, FeatureVector } from '../answerability/answerability-features';
import { rocAuc } from '../answerability/calibration';
import { fitLogistic, sigmoid } from '../answerability/logistic-regression';
import {
  checkStandardisedLogistic,
  logOdds,
  roundStored as round,
  standardise,
} from '../answerability/standardised-logistic';
import type { StandardisedLogistic } from '../answerability/standardised-logistic';

/**
 * When expansion and HyDE are adaptive, the original query is searched first and this fitted policy
 * reads how sure its ranking looks: a logistic model of P(the original query's best passage is relevant)
 * over the same index features the answerability decision reads (idf coverage, BM25 against the best
 * score the query could reach, margin, …), computed on the original query's BM25 top passages. At or
 * above the threshold the adaptive branches are skipped with their LLM calls. The threshold is chosen on
 * a bank for a stated trade-off: the most branch runs skipped whose nDCG@10 stays within `maxLoss` of
 * always running them. Stored as JSON and versioned; every decision names it.
 */
export interface ExpansionPolicy extends StandardisedLogistic {
  version: string;
  /** Confidence at or above it skips the adaptive branches. */
  threshold: number;
  /** The trade-off the threshold was chosen for, and what it gave on the fitting bank. */
  tradeOff: {
    maxLoss: number;
    minConfidence: number;
    skipped: number;
    ndcgAlwaysOn: number;
    ndcgNever: number;
    ndcgAdaptive: number;
  };
  fittedOn: { source: string; queries: number; branches: string; auc: number | null };
  /** Share skipped and nDCG@10 per threshold, on the fitting bank. */
  curve: PolicyPoint[];
}

export interface PolicyPoint {
  threshold: number;
  skipped: number;
  ndcg: number;
}

/** One judged query of the fitting bank: its features, and its nDCG@10 with and without the branches. */
export interface ExpansionSample {
  features: FeatureVector;
  /** Whether the original query's best passage is of a relevant document (the model's label). */
  top1Relevant: boolean;
  ndcgWith: number;
  ndcgWithout: number;
}

export interface FitExpansionPolicyOptions {
  version: string;
  source: string;
  /** Which branches the bank ran ("expansion+hyde"), for the record. */
  branches: string;
  /** Largest nDCG@10 loss against always-on the threshold may cost, on the fitting bank. */
  maxLoss: number;
  /** The lowest confidence the threshold may take (see chooseThreshold). */
  minConfidence: number;
  features: readonly AnswerabilityFeature[];
  l2: number;
}

/** The features that mean something for one BM25 list (no dense similarity, no other branch). */
export const EXPANSION_POLICY_FEATURES: readonly AnswerabilityFeature[] = ANSWERABILITY_FEATURES.filter(
  (f) => f !== 'denseTop1' && f !== 'branchAgreement',
);

export const DEFAULT_EXPANSION_POLICY_FIT: Readonly<
  Pick<FitExpansionPolicyOptions, 'maxLoss' | 'minConfidence' | 'l2' | 'features'>
> = Object.freeze({
  maxLoss: 0.005,
  minConfidence: 0.5,
  l2: 1,
  features: EXPANSION_POLICY_FEATURES,
});

/** The policy's confidence for one query's features, and each feature's contribution to the log-odds. */
export function scoreConfidence(
  policy: StandardisedLogistic,
  features: FeatureVector,
): { confidence: number; contributions: Record<string, number> } {
  const { z, contributions } = logOdds(policy, features);
  return { confidence: round(sigmoid(z)), contributions };
}

/**
 * The threshold for a trade-off: the lowest (so the most branch runs skipped) whose mean nDCG@10 — the
 * original ranking where the confidence reaches it, the full one elsewhere — stays within `maxLoss` of
 * always running the branches. Candidates are the observed confidences from `minConfidence` up (and 1:
 * never skip, loss 0). The floor (default ½: skip only where the original's best passage is more likely
 * relevant than not) keeps a bank on which the branches happen not to matter from fitting a policy that
 * skips them for every query, including the ones its model sees failing.
 */
export function chooseThreshold(
  confidences: readonly number[],
  ndcgWith: readonly number[],
  ndcgWithout: readonly number[],
  maxLoss: number,
  minConfidence = DEFAULT_EXPANSION_POLICY_FIT.minConfidence,
): { threshold: number; curve: PolicyPoint[] } {
  const n = confidences.length;
  if (n === 0) throw new RangeError('no samples to choose a threshold on');
  if (ndcgWith.length !== n || ndcgWithout.length !== n)
    throw new RangeError('one nDCG with and without the branches per sample');
  const alwaysOn = mean(ndcgWith);
  const candidates = [...new Set([...confidences, 1])].sort((a, b) => a - b);
  const curve = candidates.map((threshold) => {
    let skipped = 0;
    let total = 0;
    for (let i = 0; i < n; i++) {
      const skip = confidences[i] >= threshold;
      if (skip) skipped++;
      total += skip ? ndcgWithout[i] : ndcgWith[i];
    }
    return { threshold, skipped: round(skipped / n), ndcg: round(total / n) };
  });
  const chosen =
    curve.find((point) => point.threshold >= minConfidence && alwaysOn - point.ndcg <= maxLoss + 1e-12) ??
    curve[curve.length - 1];
  return { threshold: chosen.threshold, curve };
}

/** Fit the confidence model on the bank's judged queries, then choose its threshold for `maxLoss`. */
export function fitExpansionPolicy(
  samples: readonly ExpansionSample[],
  options: FitExpansionPolicyOptions,
): ExpansionPolicy {
  const positives = samples.filter((s) => s.top1Relevant).length;
  if (positives === 0 || positives === samples.length)
    throw new RangeError('fitting needs queries whose best passage is relevant and queries whose is not');
  const names = [...options.features];
  const {
    mean: means,
    scale,
    rows,
  } = standardise(
    samples.map((s) => s.features),
    names,
  );
  const fit = fitLogistic(
    rows,
    samples.map((s) => (s.top1Relevant ? 1 : 0)),
    { l2: options.l2 },
  );
  const model = {
    features: names,
    mean: means.map(round),
    scale: scale.map(round),
    weights: fit.weights.map(round),
    bias: round(fit.bias),
  };
  const confidences = samples.map((s) => scoreConfidence(model, s.features).confidence);
  const ndcgWith = samples.map((s) => s.ndcgWith);
  const ndcgWithout = samples.map((s) => s.ndcgWithout);
  const { threshold, curve } = chooseThreshold(
    confidences,
    ndcgWith,
    ndcgWithout,
    options.maxLoss,
    options.minConfidence,
  );
  const point = curve.find((p) => p.threshold === threshold)!;
  return {
    version: options.version,
    ...model,
    threshold,
    tradeOff: {
      maxLoss: options.maxLoss,
      minConfidence: options.minConfidence,
      skipped: point.skipped,
      ndcgAlwaysOn: round(mean(ndcgWith)),
      ndcgNever: round(mean(ndcgWithout)),
      ndcgAdaptive: point.ndcg,
    },
    fittedOn: {
      source: options.source,
      queries: samples.length,
      branches: options.branches,
      auc: rocAuc(
        confidences.filter((_, i) => samples[i].top1Relevant),
        confidences.filter((_, i) => !samples[i].top1Relevant),
      ),
    },
    curve: thinCurve(curve),
  };
}

/** A policy read from JSON (a file), checked field by field; throws with the reason. */
export function parseExpansionPolicy(value: unknown): ExpansionPolicy {
  const fail = (why: string): never => {
    throw new TypeError(`not an expansion policy: ${why}`);
  };
  if (typeof value !== 'object' || value === null) return fail('not an object');
  const p = value as Record<string, unknown>;
  if (typeof p.version !== 'string' || !p.version) fail('version must be a non-empty string');
  checkStandardisedLogistic(p, fail);
  return value as ExpansionPolicy;
}

/**
 * A policy that never skips and records every feature: searching with it collects what a policy is
 * fitted on, through exactly the code path the app decides with.
 */
export function expansionProbePolicy(): ExpansionPolicy {
  const features = [...ANSWERABILITY_FEATURES];
  return {
    version: 'expansion-probe',
    features,
    mean: features.map(() => 0),
    scale: features.map(() => 1),
    weights: features.map(() => 0),
    bias: 0,
    // Above any confidence: nothing is skipped.
    threshold: Number.POSITIVE_INFINITY,
    tradeOff: { maxLoss: 0, minConfidence: 0, skipped: 0, ndcgAlwaysOn: 0, ndcgNever: 0, ndcgAdaptive: 0 },
    fittedOn: { source: 'none', queries: 0, branches: '', auc: null },
    curve: [],
  };
}

/** At most ~40 points of the curve for the stored file (every point is in the fit's report). */
function thinCurve(curve: PolicyPoint[]): PolicyPoint[] {
  if (curve.length <= 40) return curve;
  const step = (curve.length - 1) / 39;
  return Array.from({ length: 40 }, (_, i) => curve[Math.round(i * step)]);
}

function mean(values: readonly number[]): number {
  return values.length ? values.reduce((sum, v) => sum + v, 0) / values.length : 0;
}

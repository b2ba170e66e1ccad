import { ANSWERABILITY_FEATURES } from './answerability-features';
import type { AnswerabilityFeature, FeatureVector } from './answerability-features';

/**
 * The stored part of a logistic model over standardised index features, shared by the answerability
 * model and the adaptive-expansion policy: z = bias + Σ weight × (value − mean) / scale.
 */
export interface StandardisedLogistic {
  features: AnswerabilityFeature[];
  /** Standardisation: (x − mean) / scale, per feature. */
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
}

/** The log-odds of one feature vector, and each feature's contribution to it (rounded as stored). */
export function logOdds(
  model: StandardisedLogistic,
  features: FeatureVector,
): { z: number; contributions: Record<string, number> } {
  const contributions: Record<string, number> = {};
  let z = model.bias;
  model.features.forEach((name, i) => {
    const contribution = model.weights[i] * ((features[name] - model.mean[i]) / model.scale[i]);
    contributions[name] = roundStored(contribution);
    z += contribution;
  });
  return { z, contributions };
}

/** The named features of each sample as rows, their means and scales (1 for a constant feature), and
 *  the standardised rows; throws when a sample lacks a finite value. */
export function standardise(
  samples: readonly FeatureVector[],
  names: readonly AnswerabilityFeature[],
): { mean: number[]; scale: number[]; rows: number[][] } {
  const raw = samples.map((s) => names.map((name) => s[name]));
  const bad = raw.findIndex((row) => row.some((value) => !Number.isFinite(value)));
  if (bad >= 0) throw new RangeError(`sample ${bad} lacks a finite value for one of ${names.join(', ')}`);
  const mean = names.map((_, j) => raw.reduce((sum, row) => sum + row[j], 0) / raw.length);
  const scale = names.map((_, j) => {
    const variance = raw.reduce((sum, row) => sum + (row[j] - mean[j]) ** 2, 0) / raw.length;
    return Math.sqrt(variance) || 1;
  });
  return { mean, scale, rows: raw.map((row) => row.map((value, j) => (value - mean[j]) / scale[j])) };
}

/** Check the stored parameters of a model read from JSON; `fail` throws with the reason. */
export function checkStandardisedLogistic(m: Record<string, unknown>, fail: (why: string) => never): void {
  const features = m.features;
  if (!Array.isArray(features) || features.length === 0) fail('features must be a non-empty list');
  for (const name of features as unknown[]) {
    if (!(ANSWERABILITY_FEATURES as readonly string[]).includes(name as string))
      fail(`unknown feature ${String(name)}`);
  }
  for (const key of ['mean', 'scale', 'weights'] as const) {
    const list = m[key];
    if (
      !Array.isArray(list) ||
      list.length !== (features as unknown[]).length ||
      list.some((v) => !Number.isFinite(v))
    )
      fail(`${key} must list one finite number per feature`);
  }
  if ((m.scale as number[]).some((v) => v <= 0)) fail('scale must be positive');
  if (!Number.isFinite(m.bias)) fail('bias must be a finite number');
  if (typeof m.threshold !== 'number' || m.threshold < 0 || m.threshold > 1)
    fail('threshold must be in [0, 1]');
}

/** Six decimals (what is stored), and never −0, so a model survives a JSON round trip unchanged. */
export function roundStored(value: number): number {
  return Math.round(value * 1e6) / 1e6 || 0;
}

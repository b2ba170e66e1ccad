import { ANSWERABILITY_FEATURES } from '../answerability/answerability-features';
import type { FeatureVector } from '../answerability/answerability-features';
import { mulberry32 } from '../random/mulberry32';
import {
  chooseThreshold,
  expansionProbePolicy,
  fitExpansionPolicy,
  parseExpansionPolicy,
  scoreConfidence,
} from './expansion-policy';
import type { ExpansionSample } from './expansion-policy';

const zero = (): FeatureVector =>
  Object.fromEntries(ANSWERABILITY_FEATURES.map((f) => [f, 0])) as FeatureVector;

describe('scoreConfidence', () => {
  it('is σ(bias + Σ weight × standardised value), with each contribution', () => {
    const features = { ...zero(), coverageTop1: 0.8, bm25Margin: 0.1 };
    const { confidence, contributions } = scoreConfidence(
      {
        features: ['coverageTop1', 'bm25Margin'],
        mean: [0.5, 0.3],
        scale: [0.1, 0.2],
        weights: [1, 2],
        bias: -1,
      },
      features,
    );
    // z = −1 + 1 × 3 + 2 × (−1) = 0
    expect(contributions).toEqual({ coverageTop1: 3, bm25Margin: -2 });
    expect(confidence).toBe(0.5);
  });
});

describe('chooseThreshold', () => {
  const confidences = [0.1, 0.4, 0.6, 0.9];
  // The branches help the two unsure queries (+0.2 each) and do nothing for the sure ones.
  const withBranches = [0.5, 0.5, 0.8, 0.9];
  const without = [0.3, 0.3, 0.8, 0.9];

  it('takes the lowest threshold whose nDCG stays within the loss of always running the branches', () => {
    const { threshold, curve } = chooseThreshold(confidences, withBranches, without, 0.005);
    expect(threshold).toBe(0.6);
    expect(curve).toEqual([
      { threshold: 0.1, skipped: 1, ndcg: 0.575 },
      { threshold: 0.4, skipped: 0.75, ndcg: 0.625 },
      { threshold: 0.6, skipped: 0.5, ndcg: 0.675 },
      { threshold: 0.9, skipped: 0.25, ndcg: 0.675 },
      { threshold: 1, skipped: 0, ndcg: 0.675 },
    ]);
  });

  it('skips more when more loss is allowed, and never when none is and every query gains', () => {
    expect(chooseThreshold(confidences, withBranches, without, 0.05, 0).threshold).toBe(0.4);
    expect(chooseThreshold(confidences, [0.4, 0.4, 0.9, 1], [0.3, 0.3, 0.8, 0.9], 0).threshold).toBe(1);
  });

  it('never goes under the confidence floor, even where the branches change nothing', () => {
    const same = [0.5, 0.5, 0.8, 0.9];
    expect(chooseThreshold(confidences, same, same, 0.005, 0).threshold).toBe(0.1);
    expect(chooseThreshold(confidences, same, same, 0.005).threshold).toBe(0.6);
    expect(chooseThreshold(confidences, same, same, 0.005, 0.95).threshold).toBe(1);
  });
});

describe('fitExpansionPolicy', () => {
  /** A synthetic bank where one feature (coverageTop1) decides whether the best passage is relevant. */
  const bank = (): ExpansionSample[] => {
    const random = mulberry32(7);
    return Array.from({ length: 200 }, () => {
      const coverage = random();
      const relevant = coverage > 0.5;
      return {
        features: { ...zero(), coverageTop1: coverage, bm25Margin: random(), logQueryTerms: random() * 2 },
        top1Relevant: relevant,
        // Unsure queries gain from the branches; sure ones lose a little.
        ndcgWith: relevant ? 0.78 : 0.5,
        ndcgWithout: relevant ? 0.8 : 0.3,
      };
    });
  };
  const options = {
    version: 'adaptive-synthetic-v1',
    source: 'synthetic:train',
    branches: 'expansion+hyde',
    maxLoss: 0.005,
    minConfidence: 0.5,
    features: ['coverageTop1', 'bm25Margin', 'logQueryTerms'] as const,
    l2: 0.01,
  };

  it('recovers the deciding feature and skips the sure queries only', () => {
    const policy = fitExpansionPolicy(bank(), { ...options, features: [...options.features] });
    const [coverage, margin, terms] = policy.weights;
    expect(coverage).toBeGreaterThan(5 * Math.max(Math.abs(margin), Math.abs(terms)));
    expect(policy.fittedOn).toMatchObject({ source: 'synthetic:train', queries: 200 });
    expect(policy.fittedOn.auc).toBeGreaterThan(0.99);
    // Skipping the relevant-top-1 queries (about half) gains 0.02 each, which the loss budget spends on
    // a few unsure ones: the chosen point skips a little over half.
    expect(policy.tradeOff.skipped).toBeGreaterThan(0.45);
    expect(policy.tradeOff.skipped).toBeLessThan(0.7);
    expect(policy.tradeOff.ndcgAdaptive).toBeGreaterThanOrEqual(policy.tradeOff.ndcgAlwaysOn - 0.005);
    const sure = scoreConfidence(policy, {
      ...zero(),
      coverageTop1: 0.95,
      bm25Margin: 0.5,
      logQueryTerms: 1,
    });
    const unsure = scoreConfidence(policy, {
      ...zero(),
      coverageTop1: 0.05,
      bm25Margin: 0.5,
      logQueryTerms: 1,
    });
    expect(sure.confidence).toBeGreaterThanOrEqual(policy.threshold);
    expect(unsure.confidence).toBeLessThan(policy.threshold);
  });

  it('is deterministic and survives a JSON round trip', () => {
    const a = fitExpansionPolicy(bank(), { ...options, features: [...options.features] });
    const b = fitExpansionPolicy(bank(), { ...options, features: [...options.features] });
    expect(a).toEqual(b);
    expect(parseExpansionPolicy(JSON.parse(JSON.stringify(a)))).toEqual(a);
  });

  it('needs both kinds of query', () => {
    const all = bank().map((s) => ({ ...s, top1Relevant: true }));
    expect(() => fitExpansionPolicy(all, { ...options, features: [...options.features] })).toThrow(
      /relevant and queries whose is not/,
    );
  });
});

describe('parseExpansionPolicy', () => {
  const valid = { ...expansionProbePolicy(), threshold: 0.7 };

  it('rejects what is not a policy, with the reason', () => {
    expect(() => parseExpansionPolicy(null)).toThrow(/not an object/);
    expect(() => parseExpansionPolicy({ ...valid, version: '' })).toThrow(/version/);
    expect(() => parseExpansionPolicy({ ...valid, features: ['nope'] })).toThrow(/unknown feature nope/);
    expect(() => parseExpansionPolicy({ ...valid, weights: [1] })).toThrow(/weights/);
    expect(() => parseExpansionPolicy({ ...valid, threshold: 2 })).toThrow(/threshold/);
  });

  it('accepts a valid one unchanged', () => {
    expect(parseExpansionPolicy(valid)).toBe(valid);
  });
});

import { ANSWERABILITY_FEATURES } from './answerability-features';
import type { FeatureVector } from './answerability-features';
import {
  decideAnswerability,
  featureProbeModel,
  fitAnswerabilityModel,
  parseAnswerabilityModel,
  scoreAnswerability,
} from './answerability-model';
import type { LabelledFeatures } from './answerability-model';

const vector = (overrides: Partial<FeatureVector>): FeatureVector => ({
  ...(Object.fromEntries(ANSWERABILITY_FEATURES.map((f) => [f, 0.5])) as FeatureVector),
  ...overrides,
});

/** A synthetic bank where only coverage decides: in scope above 0.5, out of scope below. */
function bank(): LabelledFeatures[] {
  const samples: LabelledFeatures[] = [];
  for (let i = 0; i < 60; i++) {
    const coverage = (i + 0.5) / 60;
    samples.push({
      features: vector({ coverageTop1: coverage, bm25Margin: ((i * 37) % 60) / 60 }),
      inScope: coverage > 0.5,
      source: i % 2 ? 'bank-a' : 'bank-b',
    });
  }
  return samples;
}

describe('answerability model', () => {
  it('fits the feature that decides, and chooses the threshold for the false-refusal target', () => {
    const model = fitAnswerabilityModel(bank(), {
      version: 'test-v1',
      features: ['coverageTop1', 'bm25Margin'],
      target: 0.05,
      l2: 0.01,
    });
    expect(model.weights[0]).toBeGreaterThan(5 * Math.abs(model.weights[1]));
    expect(model.operatingPoint.inScopeRefused).toBeLessThanOrEqual(0.05);
    expect(model.operatingPoint.outOfScopeAnswered).toBeLessThan(0.2);
    expect(model.fittedOn).toMatchObject({ sources: ['bank-a', 'bank-b'], inScope: 30, outOfScope: 30 });
    expect(model.fittedOn.auc).toBe(1);
    expect(model.curve.length).toBeGreaterThan(5);

    const yes = decideAnswerability(model, vector({ coverageTop1: 0.9 }));
    const no = decideAnswerability(model, vector({ coverageTop1: 0.1 }));
    expect(yes).toMatchObject({ modelVersion: 'test-v1', answerable: true, threshold: model.threshold });
    expect(no.answerable).toBe(false);
    expect(Object.keys(yes.features)).toEqual(['coverageTop1', 'bm25Margin']);
    expect(Math.abs(yes.contributions.coverageTop1)).toBeGreaterThan(Math.abs(yes.contributions.bm25Margin));
  });

  it('needs both kinds of question to fit', () => {
    const inOnly = bank().filter((s) => s.inScope);
    expect(() =>
      fitAnswerabilityModel(inOnly, { version: 'x', features: ['coverageTop1'], target: 0.05, l2: 1 }),
    ).toThrow(RangeError);
  });

  it('the probe answers everything and records every feature', () => {
    const verdict = decideAnswerability(featureProbeModel(), vector({ coverageTop1: 0 }));
    expect(verdict.answerable).toBe(true);
    expect(Object.keys(verdict.features)).toEqual([...ANSWERABILITY_FEATURES]);
    expect(scoreAnswerability(featureProbeModel(), vector({})).score).toBe(0.5);
  });

  it('reads a stored model back, and refuses a malformed one with the reason', () => {
    const model = fitAnswerabilityModel(bank(), {
      version: 'v',
      features: ['coverageTop1'],
      target: 0.05,
      l2: 1,
    });
    expect(parseAnswerabilityModel(JSON.parse(JSON.stringify(model)))).toEqual(model);
    expect(() => parseAnswerabilityModel({ ...model, features: ['nope'] })).toThrow(/unknown feature nope/);
    expect(() => parseAnswerabilityModel({ ...model, weights: [] })).toThrow(/weights/);
    expect(() => parseAnswerabilityModel({ ...model, threshold: 2 })).toThrow(/threshold/);
    expect(() => parseAnswerabilityModel(null)).toThrow(/not an object/);
  });
});

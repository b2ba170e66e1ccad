import { rateInterval } from '../answers/answer-metrics';
import { gateFailures } from './answerability-report';
import type { AnswerabilitySourceRun, AnswerGate } from './answerability-report';

const run = (precise: number, markers: number | null): AnswerabilitySourceRun => ({
  source: 'docs',
  modelVersion: 'm',
  metrics: {
    inScopeRefused: rateInterval(1, 20),
    outOfScopeAnswered: rateInterval(2, 10),
    auc: 0.8,
    support: rateInterval(12, 18),
    ...(markers === null ? {} : { citationPrecision: rateInterval(precise, markers) }),
    modelVersion: 'm',
    generator: 'extractive',
  },
  timings: { searchP50: 1, answerP50: 1 },
  items: [],
});

const gate: AnswerGate = {
  source: 'docs',
  maxInScopeRefused: 0.1,
  maxOutOfScopeAnswered: 0.5,
  minAuc: 0.7,
  minSupport: 0.6,
  minCitationPrecision: 1,
};

describe('answerability gate', () => {
  it('holds citation precision at its bound, and fails when it was not measured', () => {
    expect(gateFailures([run(40, 40)], [gate])).toEqual([]);
    expect(gateFailures([run(39, 40)], [gate])).toEqual(['docs: citation precision 0.975 (39/40) < 1']);
    expect(gateFailures([run(0, null)], [gate])).toEqual(['docs: citation precision not measured']);
    expect(gateFailures([run(0, 0)], [gate])).toEqual(['docs: citation precision not measured']);
  });

  it('leaves citation precision alone when the gate sets no bound', () => {
    const { minCitationPrecision: _, ...withoutBound } = gate;
    expect(gateFailures([run(1, 40)], [withoutBound])).toEqual([]);
  });
});

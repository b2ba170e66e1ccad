import type { RerankerMeasurement } from '@lumina/shared';
import {
  activeButNotServing,
  activeRerankerSentence,
  configuredComparison,
  formatGain,
  formatP,
  measurementScope,
  rerankerActions,
  rerankersBusy,
  rerankerStatusWord,
} from './rerankers';

const measurement: RerankerMeasurement = {
  folds: 5,
  queries: 14,
  groupedBySource: true,
  ndcgBefore: 0.612,
  ndcgAfter: 0.745,
  p: 0.0004,
  configured: null,
  preferred: 'learned',
};

describe('learned reranker view helpers', () => {
  it('polls while a fit is queued or fitting, not when all are finished', () => {
    expect(rerankersBusy([{ status: 'ready' }, { status: 'fitting' }])).toBe(true);
    expect(rerankersBusy([{ status: 'queued' }])).toBe(true);
    expect(rerankersBusy([{ status: 'ready' }, { status: 'failed' }])).toBe(false);
    expect(rerankersBusy([])).toBe(false);
    expect(rerankerStatusWord('queued')).toBe('Waiting in the queue');
    expect(rerankerStatusWord('failed')).toBe('Failed');
  });

  it('signs the gain and shows tiny p-values as a bound', () => {
    expect(formatGain(0.612, 0.745)).toBe('+0.133');
    expect(formatGain(0.7, 0.68)).toBe('−0.020');
    expect(formatGain(0.5, 0.5)).toBe('±0.000');
    expect(formatP(0.0004)).toBe('< 0.001');
    expect(formatP(0.0123)).toBe('0.012');
    expect(measurementScope(measurement)).toBe(
      '5 folds, 14 questions, questions about one source kept in one fold',
    );
    expect(measurementScope({ ...measurement, groupedBySource: false, queries: 1, folds: 1 })).toBe(
      '1 fold, 1 question',
    );
  });

  it('compares with the configured reranker only when there is one, naming the preferred side', () => {
    expect(configuredComparison(measurement)).toBeNull();
    const withLlm = { ...measurement, configured: { model: 'gpt-x', ndcg: 0.7, p: 0.21, calls: 14 } };
    expect(configuredComparison(withLlm)).toBe(
      'The configured reranker (gpt-x) reached nDCG@10 0.700 against 0.745 for this model (p = 0.210, ' +
        '14 calls): the learned model scored higher, so it is preferred.',
    );
    expect(configuredComparison({ ...withLlm, preferred: 'configured' })).toMatch(
      /the configured reranker scored at least as high, so it is preferred\.$/,
    );
  });

  it('says what serves reranking now', () => {
    expect(activeRerankerSentence(null)).toMatch(/^No reranker is in use/);
    expect(activeRerankerSentence({ model: null, source: null, rerankerId: null })).toMatch(/^No reranker/);
    expect(activeRerankerSentence({ model: 'ltr:bank-v1', source: 'fitted', rerankerId: 'r' })).toBe(
      'Reranking now uses the fitted model ltr:bank-v1.',
    );
    expect(activeRerankerSentence({ model: 'scripted', source: 'llm', rerankerId: null })).toBe(
      'Reranking now uses the language model (scripted).',
    );
  });

  it('offers switching on only for a ready model that is off, and no delete while it is fitted', () => {
    expect(rerankerActions({ status: 'ready', active: false })).toEqual({
      activate: true,
      deactivate: false,
      download: true,
      remove: true,
    });
    expect(rerankerActions({ status: 'ready', active: true })).toMatchObject({
      activate: false,
      deactivate: true,
    });
    expect(rerankerActions({ status: 'fitting', active: false })).toEqual({
      activate: false,
      deactivate: false,
      download: false,
      remove: false,
    });
    expect(rerankerActions({ status: 'failed', active: false })).toMatchObject({
      activate: false,
      download: false,
      remove: true,
    });
  });

  it('explains a switched-on model that does not serve because the configured reranker measured better', () => {
    const llm = { model: 'scripted', source: 'llm' as const, rerankerId: null };
    expect(activeButNotServing({ id: 'r1', active: true }, llm)).toMatch(
      /^Switched on, but the configured reranker measured better on this bank/,
    );
    expect(
      activeButNotServing(
        { id: 'r1', active: true },
        { model: 'ltr:b-v1', source: 'fitted', rerankerId: 'r1' },
      ),
    ).toBeNull();
    expect(activeButNotServing({ id: 'r1', active: false }, llm)).toBeNull();
  });
});

import { featureProbeModel } from '../answerability/answerability-model';
import { answerabilityModelOf, DEFAULT_SEARCH_OPTIONS } from './search-options';
import type { SearchOptions } from './search-options';

const lexical = { ...featureProbeModel(), version: 'fitted-on-bm25' };
const hybrid = { ...featureProbeModel(), version: 'fitted-on-hybrid' };

function options(overrides: Partial<SearchOptions>): SearchOptions {
  return {
    ...DEFAULT_SEARCH_OPTIONS,
    answerabilityModel: lexical,
    answerabilityModelsByRanker: { hybrid },
    weights: { lexical: 1, dense: 0.5 },
    ...overrides,
  };
}

describe('answerabilityModelOf', () => {
  it("decides a hybrid search that reads vectors with the model fitted on the hybrid's searches", () => {
    expect(answerabilityModelOf(options({}), 'hybrid')?.version).toBe('fitted-on-hybrid');
  });

  it('decides a hybrid whose dense list has no weight (a weak encoder, a routed language) as BM25', () => {
    const routed = options({ weights: { lexical: 1, dense: 0 } });
    expect(answerabilityModelOf(routed, 'hybrid')?.version).toBe('fitted-on-bm25');
  });

  it('falls back to the general model for a ranker with no model of its own', () => {
    expect(answerabilityModelOf(options({}), 'bm25')?.version).toBe('fitted-on-bm25');
    expect(answerabilityModelOf(options({}), 'dense')?.version).toBe('fitted-on-bm25');
    expect(answerabilityModelOf(options({ answerabilityModelsByRanker: {} }), 'hybrid')?.version).toBe(
      'fitted-on-bm25',
    );
  });

  it('decides nothing when no model is configured', () => {
    const none = options({ answerabilityModel: null, answerabilityModelsByRanker: {} });
    expect(answerabilityModelOf(none, 'hybrid')).toBeNull();
  });
});

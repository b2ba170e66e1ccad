import { DEFAULT_LAMBDAMART_FIT, LTR_FEATURES } from '@lumina/rag';
import {
  rankingFitSpec,
  readsCurrentFeatures,
  recordedFitSource,
  selectLtrFeatures,
} from './ranking-fit-options';

const source = { version: 'v1', source: 'scifact:train', candidateDepth: 30 };

describe('the fit spec of parsed options', () => {
  it('fits the linear learner with the asked options and the default iterations', () => {
    expect(
      rankingFitSpec(
        { learner: 'linear', objective: 'ndcg', features: ['bm25'], l2: 0.5, seed: 3, maxPairsPerQuery: 40 },
        source,
      ),
    ).toEqual({
      learner: 'linear',
      objective: 'ndcg',
      options: {
        version: 'v1',
        source: 'scifact:train',
        candidateDepth: 30,
        features: ['bm25'],
        l2: 0.5,
        seed: 3,
        maxPairsPerQuery: 40,
        maxIterations: 50,
      },
    });
  });

  it('fits LambdaMART with the asked trees over its defaults', () => {
    expect(
      rankingFitSpec(
        {
          learner: 'lambdamart',
          features: ['bm25', 'bm25Title'],
          trees: 20,
          learningRate: 0.1,
          maxDepth: 3,
          minLeafRows: 50,
        },
        source,
      ),
    ).toEqual({
      learner: 'lambdamart',
      options: {
        version: 'v1',
        source: 'scifact:train',
        candidateDepth: 30,
        features: ['bm25', 'bm25Title'],
        trees: 20,
        learningRate: 0.1,
        maxDepth: 3,
        minLeafRows: 50,
        leafL2: DEFAULT_LAMBDAMART_FIT.leafL2,
        bins: DEFAULT_LAMBDAMART_FIT.bins,
      },
    });
  });
});

describe('recorded samples', () => {
  const read = { source: 'scifact:train', candidateK: 30, queriesAsked: 60, search: { ranker: 'bm25' } };

  it('name where a model fitted on them came from', () => {
    expect(recordedFitSource(read, 'ltr-v2')).toEqual({
      version: 'ltr-v2',
      source: 'scifact:train',
      candidateDepth: 30,
      notes: { search: { ranker: 'bm25' }, queriesAsked: 60 },
    });
    expect(recordedFitSource(read).version).toBe('cross-validation');
  });

  it('are read again when they hold other features than this version reads', () => {
    expect(readsCurrentFeatures([...LTR_FEATURES])).toBe(true);
    expect(readsCurrentFeatures(LTR_FEATURES.slice(1))).toBe(false);
    expect(readsCurrentFeatures([...LTR_FEATURES].reverse())).toBe(false);
  });
});

describe('the features a list names', () => {
  it('are every feature without a list', () => {
    expect(selectLtrFeatures()).toEqual({ features: [...LTR_FEATURES], unknown: [] });
  });

  it('are the listed ones, in their order, with the names that are no feature', () => {
    expect(selectLtrFeatures('bm25Title,bm25')).toEqual({ features: ['bm25Title', 'bm25'], unknown: [] });
    expect(selectLtrFeatures('bm25,bm25_rank,nope').unknown).toEqual(['bm25_rank', 'nope']);
  });
});

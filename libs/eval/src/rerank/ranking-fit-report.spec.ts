import { LTR_FEATURES, LTR_MODEL_FORMAT, LTR_TREES_FORMAT } from '@lumina/rag';
import type { LtrModel, LtrTraining, LtrTreesModel } from '@lumina/rag';
import type { LtrCrossValidation } from './cross-validate-ltr';
import { formatCrossValidation, formatFitTraining, formatImportance } from './ranking-fit-report';

const training: LtrTraining = {
  source: 'scifact:train',
  queries: 49,
  candidates: 1470,
  pairs: 2286,
  candidateDepth: 30,
  seed: 1,
  l2: 1,
  maxPairsPerQuery: 300,
  iterations: 6,
  converged: true,
  loss: { initial: 0.69314718, final: 0.37131103 },
};

const linear: LtrModel = {
  format: LTR_MODEL_FORMAT,
  version: 't',
  features: ['bm25', 'bm25Title', 'idfCoverage'],
  mean: [0, 0, 0],
  scale: [1, 1, 1],
  weights: [0.25, -0.5, 0],
  training,
};

const trees: LtrTreesModel = {
  format: LTR_TREES_FORMAT,
  version: 't',
  features: ['bm25', 'bm25Title'],
  learningRate: 0.05,
  trees: [
    {
      feature: [1, -1, -1],
      threshold: [0.5, 0, 0],
      left: [1, -1, -1],
      right: [2, -1, -1],
      value: [0, 1, -1],
    },
    {
      feature: [1, 0, -1, -1, -1],
      threshold: [0.5, 2, 0, 0, 0],
      left: [1, 3, -1, -1, -1],
      right: [2, 4, -1, -1, -1],
      value: [0, 0, 1, 1, -1],
    },
  ],
  training: {
    ...training,
    iterations: 2,
    converged: false,
    trees: { count: 2, maxDepth: 2, minLeafRows: 1, leafL2: 1, bins: 256 },
  },
};

describe('what a fit prints', () => {
  it('gives the cross-validated nDCG@10 before and after, their difference and p', () => {
    const cv: LtrCrossValidation = {
      folds: 3,
      queries: 49,
      before: [],
      after: [],
      meanBefore: 0.61234,
      meanAfter: 0.65,
      p: 0.01234,
    };
    const samples = { source: 'scifact:train', candidateK: 30 };
    expect(formatCrossValidation(cv, samples, false)).toBe(
      '3-fold cross-validation on scifact:train, 49 queries, nDCG@10 over 30 candidates: ' +
        'search order 0.6123, reranked 0.6500 (+0.0377, paired randomisation p = 0.0123)',
    );
    expect(formatCrossValidation({ ...cv, meanAfter: 0.6 }, samples, true)).toBe(
      '3-fold cross-validation (queries sharing a relevant document kept together) on scifact:train, ' +
        '49 queries, nDCG@10 over 30 candidates: search order 0.6123, reranked 0.6000 ' +
        '(-0.0123, paired randomisation p = 0.0123)',
    );
  });

  it('says how the fit went: Newton steps for the linear model, trees for LambdaMART', () => {
    expect(formatFitTraining(linear, 43)).toBe(
      'fitted on 49 queries, 2286 pairs in 43 ms (6 Newton steps, converged: true); ' +
        'pairwise loss 0.69314718 → 0.37131103',
    );
    expect(formatFitTraining(trees, 7)).toBe(
      'fitted on 49 queries, 2286 pairs in 7 ms (2 trees, converged: false); ' +
        'pairwise loss 0.69314718 → 0.37131103',
    );
    const refined = {
      ...linear,
      training: { ...training, coordinateAscent: { rounds: 2, ndcgBefore: 0.6, ndcgAfter: 0.62 } },
    };
    expect(formatFitTraining(refined, 43)).toBe(
      'fitted on 49 queries, 2286 pairs in 43 ms (6 Newton steps, converged: true); ' +
        'pairwise loss 0.69314718 → 0.37131103; nDCG@10 on the fitting queries 0.6 → 0.62',
    );
  });

  it('tables the weights or the splits, most first', () => {
    expect(formatImportance(linear)).toEqual([
      `${'bm25Title'.padEnd(28)} -0.5000`,
      `${'bm25'.padEnd(28)} 0.2500`,
      `${'idfCoverage'.padEnd(28)} 0.0000`,
    ]);
    expect(formatImportance(trees)).toEqual([
      `${'bm25Title'.padEnd(28)} 2 splits`,
      `${'bm25'.padEnd(28)} 1 splits`,
    ]);
    expect(LTR_FEATURES).toContain('bm25Title');
  });
});

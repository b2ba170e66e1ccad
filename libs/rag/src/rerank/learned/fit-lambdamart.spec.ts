import { LTR_FEATURES } from './ltr-features';
import { DEFAULT_LAMBDAMART_FIT, fitLambdaMart } from './fit-lambdamart';
import type { RankingSample } from './fit-ltr';
import { LearnedReranker } from './learned-reranker';
import { featuresInUse, parseLtrModel, scoreModel } from './ltr-model';
import { LTR_TREES_FORMAT, scoreTrees } from './ltr-trees';
import type { LtrTreesModel } from './ltr-trees';

/** A seeded source of noise, so the synthetic bank is the same on every run. */
function noise(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/**
 * A bank where relevance depends on `windowCoverage` alone, and not linearly: a candidate is relevant
 * when it lies in the band 4–6 (every other feature is noise). A linear model cannot express a band;
 * two splits of a tree can.
 */
function bandBank(queries: number, seed = 11): RankingSample[] {
  const random = noise(seed);
  const decisive = LTR_FEATURES.indexOf('windowCoverage');
  return Array.from({ length: queries }, (_, q) => {
    const rows = Array.from({ length: 12 }, () => LTR_FEATURES.map(() => random() * 10));
    const relevance = rows.map((row) => (row[decisive] >= 4 && row[decisive] <= 6 ? 1 : 0));
    return { queryId: `q${q}`, rows, relevance };
  });
}

const options = {
  ...DEFAULT_LAMBDAMART_FIT,
  trees: 40,
  minLeafRows: 20,
  version: 'band-v1',
  source: 'synthetic',
  candidateDepth: 12,
};

/** Of the relevant candidates that fit in the top 3, the share a model's order puts there. */
function top3Recall(model: LtrTreesModel, bank: RankingSample[]): number {
  const columns = model.features.map((name) => LTR_FEATURES.indexOf(name));
  let hits = 0;
  let possible = 0;
  for (const sample of bank) {
    const scores = sample.rows.map(
      (row) =>
        scoreModel(
          model,
          columns.map((c) => row[c]),
        ).score,
    );
    const order = scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
    hits += order.slice(0, 3).filter((i) => sample.relevance[i] > 0).length;
    possible += Math.min(3, sample.relevance.filter((r) => r > 0).length);
  }
  return hits / possible;
}

describe('LambdaMART', () => {
  const bank = bandBank(80);
  const model = fitLambdaMart(bank, options);

  it('finds the one feature that decides relevance: the first split of every tree is on it', () => {
    const decisive = model.features.indexOf('windowCoverage');
    expect(model.trees).toHaveLength(40);
    expect(model.trees.every((tree) => tree.feature[0] === decisive)).toBe(true);
    // The band's edges, as thresholds of the splits on it, within the spacing of the data.
    const cuts = model.trees.flatMap((tree) =>
      tree.feature.flatMap((f, node) => (f === decisive ? [tree.threshold[node]] : [])),
    );
    expect(cuts.some((t) => Math.abs(t - 4) < 0.3)).toBe(true);
    expect(cuts.some((t) => Math.abs(t - 6) < 0.3)).toBe(true);
    expect(model.training.loss.final).toBeLessThan(model.training.loss.initial);
  });

  it('ranks held-out queries of the same bank by the band', () => {
    const heldOut = bandBank(30, 99);
    // One candidate in five is in the band: a random order would put about a fifth of them there.
    expect(top3Recall(model, heldOut)).toBeGreaterThan(0.9);
  });

  it('is exactly reproducible: the same samples and options give the same trees', () => {
    expect(fitLambdaMart(bank, options)).toEqual(model);
  });

  it("splits each score into its features' shares, which sum with the base to the score", () => {
    const row = bank[3].rows[5];
    const { score, base, contributions } = scoreTrees(model, row);
    expect(base + contributions.reduce((sum, c) => sum + c, 0)).toBeCloseTo(score, 10);
    // Only features the trees split on have a share.
    const used = new Set(featuresInUse(model));
    model.features.forEach((name, i) => {
      if (!used.has(name)) expect(contributions[i]).toBe(0);
    });
  });

  it('survives a JSON round trip, and a reranker serves it under its version', () => {
    const parsed = parseLtrModel(JSON.parse(JSON.stringify(model)));
    expect(parsed).toEqual(model);
    expect(new LearnedReranker(parsed).modelId).toBe('ltr:band-v1');
  });

  it('refuses trees that cannot be walked', () => {
    const tree = model.trees[0];
    const broken = (change: Partial<typeof tree>) => ({ ...model, trees: [{ ...tree, ...change }] });
    expect(() => parseLtrModel(broken({ left: tree.left.map((c) => (c > 0 ? 0 : c)) }))).toThrow(
      /children must be later nodes/,
    );
    expect(() => parseLtrModel(broken({ feature: tree.feature.map((f) => (f >= 0 ? 99 : f)) }))).toThrow(
      /feature must index/,
    );
    expect(() => parseLtrModel(broken({ value: [1] }))).toThrow(/value must hold/);
    expect(() => parseLtrModel({ ...model, learningRate: 0 })).toThrow(/learningRate/);
  });

  it('refuses a bank where no query has a relevant and an irrelevant candidate', () => {
    const flat = bank.map((s) => ({ ...s, relevance: s.relevance.map(() => 0) }));
    expect(() => fitLambdaMart(flat, options)).toThrow(/no query/);
  });
});

describe('scoring a hand-made tree', () => {
  // bm25 ≤ 2 → left (value −1); else spanDensity ≤ 0.5 → 0.5, else 2. Root value 0, inner node 1.
  const model: LtrTreesModel = {
    format: LTR_TREES_FORMAT,
    version: 'hand-made',
    features: ['bm25', 'spanDensity'],
    learningRate: 0.5,
    trees: [
      {
        feature: [0, -1, 1, -1, -1],
        threshold: [2, 0, 0.5, 0, 0],
        left: [1, -1, 3, -1, -1],
        right: [2, -1, 4, -1, -1],
        value: [0, -1, 1, 0.5, 2],
      },
    ],
    training: {
      source: 'hand-made',
      queries: 0,
      candidates: 0,
      pairs: 0,
      candidateDepth: 0,
      seed: 0,
      l2: 1,
      maxPairsPerQuery: 0,
      iterations: 1,
      converged: true,
      loss: { initial: 0, final: 0 },
      trees: { count: 1, maxDepth: 2, minLeafRows: 1, leafL2: 1, bins: 2 },
    },
  };

  it('walks each row to its leaf and attributes each step to the split feature', () => {
    expect(scoreTrees(model, [1, 0.9])).toEqual({ score: -0.5, base: 0, contributions: [-0.5, 0] });
    expect(scoreTrees(model, [3, 0.9])).toEqual({ score: 1, base: 0, contributions: [0.5, 0.5] });
    expect(scoreTrees(model, [3, 0.5])).toEqual({ score: 0.25, base: 0, contributions: [0.5, -0.25] });
    expect(featuresInUse(model)).toEqual(['bm25', 'spanDensity']);
  });
});

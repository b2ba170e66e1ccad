import { LTR_FEATURES } from './ltr-features';
import type { LtrFeature } from './ltr-features';
import type { RankingSample } from './fit-ltr';
import { LTR_TREES_FORMAT } from './ltr-trees';
import type { LtrTreesModel, RegressionTree } from './ltr-trees';

export interface FitLambdaMartOptions {
  version: string;
  /** Provenance kept in the model (e.g. 'scifact:train'). */
  source: string;
  features: readonly LtrFeature[];
  /** Boosting rounds: one regression tree each. */
  trees: number;
  /** Shrinkage: each tree's leaves are scaled by it. */
  learningRate: number;
  /** Splits from the root to the deepest leaf. */
  maxDepth: number;
  /** A split is only taken when each side keeps at least this many candidates. */
  minLeafRows: number;
  /** L2 penalty on a leaf's value (added to its summed second derivatives). */
  leafL2: number;
  /** Candidate thresholds per feature: quantiles of its training values (every distinct value when fewer). */
  bins: number;
  /** Candidates per query the rows were read over, kept as provenance. */
  candidateDepth: number;
  notes?: Record<string, unknown>;
}

/** The best of a small grid on SciFact train by 5-fold cross-validation (see docs/measurements.md, "Learned reranker"). */
export const DEFAULT_LAMBDAMART_FIT: Omit<FitLambdaMartOptions, 'version' | 'source' | 'candidateDepth'> =
  Object.freeze({
    features: LTR_FEATURES,
    trees: 200,
    learningRate: 0.05,
    maxDepth: 4,
    minLeafRows: 200,
    leafL2: 1,
    bins: 256,
  });

/** nDCG's cut-off that the gradients aim at (the ideal DCG is over the best this many). */
const NDCG_AT = 10;

/**
 * LambdaMART (Burges, 2010): gradient-boosted regression trees whose gradients are RankNet's pairwise
 * gradients, each weighed by the change in nDCG that swapping the pair would make under the current
 * scores; each leaf takes a Newton step. Deterministic (no sampling: every pair, every candidate; ties
 * between splits go to the first feature, then the lowest threshold), so the same samples and options
 * always give the same trees.
 */
export function fitLambdaMart(
  samples: readonly RankingSample[],
  options: FitLambdaMartOptions,
): LtrTreesModel {
  const columns = options.features.map((name) => {
    const index = LTR_FEATURES.indexOf(name);
    if (index < 0) throw new RangeError(`unknown feature ${name}`);
    return index;
  });
  if (options.trees < 1 || options.maxDepth < 1 || options.minLeafRows < 1 || options.bins < 2)
    throw new RangeError('trees, maxDepth and minLeafRows must be at least 1, bins at least 2');
  const d = columns.length;
  const rows: number[][] = [];
  const queries: { start: number; relevance: number[]; pairs: [number, number][]; idcg: number }[] = [];
  for (const sample of samples) {
    const start = rows.length;
    for (const row of sample.rows) rows.push(columns.map((c) => row[c]));
    const pairs: [number, number][] = [];
    sample.relevance.forEach((ri, i) =>
      sample.relevance.forEach((rj, j) => {
        if (ri > rj) pairs.push([i, j]);
      }),
    );
    const ideal = sample.relevance
      .map(gainOf)
      .sort((x, y) => y - x)
      .slice(0, NDCG_AT);
    const idcg = ideal.reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
    if (pairs.length > 0 && idcg > 0) queries.push({ start, relevance: sample.relevance, pairs, idcg });
  }
  const n = rows.length;
  if (queries.length === 0) throw new RangeError('no query has a relevant and a less relevant candidate');

  // Each feature's candidate thresholds, and each row's bin: bin b holds thresholds[b−1] < x ≤ thresholds[b].
  const thresholds = Array.from({ length: d }, (_, k) =>
    cutPoints(
      rows.map((row) => row[k]),
      options.bins,
    ),
  );
  const bins = Array.from({ length: d }, (_, k) => {
    const cuts = thresholds[k];
    const binOf = new Int32Array(n);
    for (let r = 0; r < n; r++) binOf[r] = lowerBound(cuts, rows[r][k]);
    return binOf;
  });

  const scores = new Float64Array(n);
  const gradient = new Float64Array(n);
  const hessian = new Float64Array(n);
  const trees: RegressionTree[] = [];
  const pairCount = queries.reduce((sum, q) => sum + q.pairs.length, 0);
  const lossNow = () => pairwiseLoss(queries, scores) / pairCount;
  const initialLoss = lossNow();
  for (let t = 0; t < options.trees; t++) {
    gradient.fill(0);
    hessian.fill(0);
    for (const query of queries) lambdas(query, scores, gradient, hessian);
    const tree = growTree(
      { rows: n, bins, thresholds, gradient, hessian },
      options.maxDepth,
      options.minLeafRows,
      options.leafL2,
    );
    trees.push(tree);
    for (let r = 0; r < n; r++) scores[r] += options.learningRate * leafValue(tree, rows[r]);
  }
  const round = (v: number) => Math.round(v * 1e8) / 1e8;
  return {
    format: LTR_TREES_FORMAT,
    version: options.version,
    features: [...options.features],
    learningRate: options.learningRate,
    trees,
    training: {
      source: options.source,
      queries: queries.length,
      candidates: n,
      pairs: pairCount,
      candidateDepth: options.candidateDepth,
      seed: 0,
      l2: options.leafL2,
      maxPairsPerQuery: 0,
      iterations: options.trees,
      converged: true,
      loss: { initial: round(initialLoss), final: round(lossNow()) },
      objective: 'lambdamart',
      trees: {
        count: options.trees,
        maxDepth: options.maxDepth,
        minLeafRows: options.minLeafRows,
        leafL2: options.leafL2,
        bins: options.bins,
      },
      ...(options.notes ? { notes: options.notes } : {}),
    },
  };
}

function gainOf(relevance: number): number {
  return 2 ** relevance - 1;
}

/**
 * One query's lambdas: for every pair (i more relevant than j), RankNet's gradient at the current
 * scores, weighed by |ΔnDCG| of swapping i and j where they now stand.
 */
function lambdas(
  query: { start: number; relevance: number[]; pairs: [number, number][]; idcg: number },
  scores: Float64Array,
  gradient: Float64Array,
  hessian: Float64Array,
): void {
  const { start, relevance } = query;
  const order = relevance.map((_, i) => i);
  order.sort((a, b) => scores[start + b] - scores[start + a] || a - b);
  const discount = new Float64Array(relevance.length);
  order.forEach((i, position) => (discount[i] = 1 / Math.log2(position + 2)));
  for (const [i, j] of query.pairs) {
    const delta =
      Math.abs((gainOf(relevance[i]) - gainOf(relevance[j])) * (discount[i] - discount[j])) / query.idcg;
    const rho = 1 / (1 + Math.exp(scores[start + i] - scores[start + j]));
    const lambda = rho * delta;
    const weight = rho * (1 - rho) * delta;
    gradient[start + i] -= lambda;
    gradient[start + j] += lambda;
    hessian[start + i] += weight;
    hessian[start + j] += weight;
  }
}

/** Sum over pairs of RankNet's loss ln(1 + e^−(s_i − s_j)): how the fit went, for the provenance. */
function pairwiseLoss(queries: { start: number; pairs: [number, number][] }[], scores: Float64Array): number {
  let sum = 0;
  for (const { start, pairs } of queries)
    for (const [i, j] of pairs) {
      const z = scores[start + i] - scores[start + j];
      sum += z < -30 ? -z : Math.log1p(Math.exp(-z));
    }
  return sum;
}

interface GrowInput {
  rows: number;
  bins: Int32Array[];
  thresholds: number[][];
  gradient: Float64Array;
  hessian: Float64Array;
}

/** One regression tree on the gradients, depth-first (children after their parent), Newton leaves. */
function growTree(input: GrowInput, maxDepth: number, minLeaf: number, l2: number): RegressionTree {
  const tree: RegressionTree = { feature: [], threshold: [], left: [], right: [], value: [] };
  const { gradient, hessian, bins, thresholds } = input;
  const grow = (members: Int32Array, depth: number): number => {
    let G = 0;
    let H = 0;
    for (const r of members) {
      G += gradient[r];
      H += hessian[r];
    }
    const node = tree.feature.length;
    tree.feature.push(-1);
    tree.threshold.push(0);
    tree.left.push(-1);
    tree.right.push(-1);
    const value = -G / (H + l2);
    tree.value.push(value === 0 ? 0 : value); // never −0, which JSON cannot keep
    if (depth === 0 || members.length < 2 * minLeaf) return node;

    const parent = (G * G) / (H + l2);
    let best = { gain: 0, feature: -1, bin: -1 };
    for (let k = 0; k < bins.length; k++) {
      const cuts = thresholds[k].length;
      if (cuts === 0) continue;
      const count = new Int32Array(cuts + 1);
      const g = new Float64Array(cuts + 1);
      const h = new Float64Array(cuts + 1);
      const binOf = bins[k];
      for (const r of members) {
        const b = binOf[r];
        count[b]++;
        g[b] += gradient[r];
        h[b] += hessian[r];
      }
      let nLeft = 0;
      let gLeft = 0;
      let hLeft = 0;
      for (let b = 0; b < cuts; b++) {
        nLeft += count[b];
        gLeft += g[b];
        hLeft += h[b];
        const nRight = members.length - nLeft;
        if (nLeft < minLeaf) continue;
        if (nRight < minLeaf) break;
        if (count[b] === 0) continue; // the same split as the bin before
        const gRight = G - gLeft;
        const hRight = H - hLeft;
        const gain = (gLeft * gLeft) / (hLeft + l2) + (gRight * gRight) / (hRight + l2) - parent;
        if (gain > best.gain) best = { gain, feature: k, bin: b };
      }
    }
    if (best.feature < 0) return node;
    const binOf = bins[best.feature];
    const left = members.filter((r) => binOf[r] <= best.bin);
    const right = members.filter((r) => binOf[r] > best.bin);
    tree.feature[node] = best.feature;
    tree.threshold[node] = thresholds[best.feature][best.bin];
    tree.left[node] = grow(left, depth - 1);
    tree.right[node] = grow(right, depth - 1);
    return node;
  };
  grow(
    Int32Array.from({ length: input.rows }, (_, r) => r),
    maxDepth,
  );
  return tree;
}

function leafValue(tree: RegressionTree, row: readonly number[]): number {
  let node = 0;
  while (tree.feature[node] >= 0)
    node = row[tree.feature[node]] <= tree.threshold[node] ? tree.left[node] : tree.right[node];
  return tree.value[node];
}

/**
 * Up to `bins − 1` thresholds between a feature's distinct values: every midpoint when there are few
 * values, else the midpoints after evenly spaced quantiles.
 */
function cutPoints(values: readonly number[], bins: number): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const distinct = sorted.filter((v, i) => i === 0 || v !== sorted[i - 1]);
  const midpoint = (i: number) => (distinct[i] + distinct[i + 1]) / 2;
  if (distinct.length <= bins) return distinct.slice(0, -1).map((_, i) => midpoint(i));
  const cuts: number[] = [];
  for (let q = 1; q < bins; q++) {
    const value = sorted[Math.floor((q * sorted.length) / bins)];
    const i = lowerBound(distinct, value);
    if (i < distinct.length - 1) {
      const cut = midpoint(i);
      if (cuts.length === 0 || cut > cuts[cuts.length - 1]) cuts.push(cut);
    }
  }
  return cuts;
}

/** The first index whose value is ≥ x (the list is ascending). */
function lowerBound(list: readonly number[], x: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

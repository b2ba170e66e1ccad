import { solve } from '../../answerability/logistic-regression';
import { mulberry32 } from '../../random/mulberry32';
import { LTR_FEATURES } from './ltr-features';
import type { LtrFeature } from './ltr-features';
import { LTR_MODEL_FORMAT } from './ltr-model';
import type { LtrModel } from './ltr-model';

/** One query's candidates: a feature row each (LTR_FEATURES order) and its graded relevance (0 = not). */
export interface RankingSample {
  queryId: string;
  rows: number[][];
  relevance: number[];
}

export interface FitLtrOptions {
  version: string;
  /** Provenance kept in the model (e.g. 'scifact:train'). */
  source: string;
  /** The features weighed (default every one). */
  features: readonly LtrFeature[];
  /** L2 penalty on the standardised weights, per query (the loss is a mean over queries). */
  l2: number;
  /** Pairs kept per query (a seeded sample when a query has more), so no query dominates. */
  maxPairsPerQuery: number;
  seed: number;
  maxIterations: number;
  /** Candidates per query the rows were read over, kept as provenance. */
  candidateDepth: number;
  notes?: Record<string, unknown>;
}

/** l2 chosen by cross-validation on SciFact train with queries about the same document kept in one fold. */
export const DEFAULT_LTR_FIT: Omit<FitLtrOptions, 'version' | 'source' | 'candidateDepth'> = Object.freeze({
  features: LTR_FEATURES,
  l2: 1,
  maxPairsPerQuery: 300,
  seed: 1,
  maxIterations: 50,
});

/**
 * Fit a linear ranking function pairwise (RankNet's logistic loss on every pair of candidates of one
 * query where one is more relevant than the other): minimise
 *   mean over queries of mean over its pairs of ln(1 + exp(−(s_i − s_j)))  +  l2/2 · |w|²
 * with s = w · standardised features, by Newton's method. Convex, so the optimum is unique; pair
 * sampling is seeded, so the same samples and options always give the same model.
 */
export function fitLtrModel(samples: readonly RankingSample[], options: FitLtrOptions): LtrModel {
  const columns = options.features.map((name) => {
    const index = LTR_FEATURES.indexOf(name);
    if (index < 0) throw new RangeError(`unknown feature ${name}`);
    return index;
  });
  const d = columns.length;
  const all = samples.flatMap((s) => s.rows);
  if (all.length === 0) throw new RangeError('no candidates to fit on');
  const mean = columns.map((c) => all.reduce((sum, row) => sum + row[c], 0) / all.length);
  const scale = columns.map((c, k) => {
    const variance = all.reduce((sum, row) => sum + (row[c] - mean[k]) ** 2, 0) / all.length;
    return variance > 1e-12 ? Math.sqrt(variance) : 1;
  });
  const standardise = (row: readonly number[]) => columns.map((c, k) => (row[c] - mean[k]) / scale[k]);

  // Difference vectors x_i − x_j of (more relevant, less relevant) pairs, each query weighing the same.
  const random = mulberry32(options.seed);
  const diffs: number[][] = [];
  const weights: number[] = [];
  let queries = 0;
  for (const sample of samples) {
    const rows = sample.rows.map(standardise);
    let pairs: [number, number][] = [];
    sample.relevance.forEach((ri, i) =>
      sample.relevance.forEach((rj, j) => {
        if (ri > rj) pairs.push([i, j]);
      }),
    );
    if (pairs.length === 0) continue;
    if (pairs.length > options.maxPairsPerQuery)
      pairs = sampleWithout(pairs, options.maxPairsPerQuery, random);
    queries++;
    for (const [i, j] of pairs) {
      diffs.push(rows[i].map((v, k) => v - rows[j][k]));
      weights.push(1 / pairs.length);
    }
  }
  if (queries === 0) throw new RangeError('no query has a relevant and a less relevant candidate');
  const total = weights.reduce((sum, w) => sum + w, 0);
  const pairWeight = weights.map((w) => w / total);

  const loss = (theta: readonly number[]) =>
    diffs.reduce((sum, x, p) => sum + pairWeight[p] * softplus(-dot(theta, x)), 0) +
    (options.l2 / 2) * dot(theta, theta);
  let theta = new Array<number>(d).fill(0);
  const initial = loss(theta);
  let iterations = 0;
  let converged = false;
  while (iterations < options.maxIterations) {
    iterations++;
    const gradient = theta.map((t) => options.l2 * t);
    const hessian = Array.from({ length: d }, (_, a) =>
      Array.from({ length: d }, (_, b) => (a === b ? options.l2 : 0)),
    );
    diffs.forEach((x, p) => {
      const q = sigmoidOf(-dot(theta, x)); // P(pair wrongly ordered)
      const r = pairWeight[p] * -q;
      const h = pairWeight[p] * q * (1 - q);
      for (let a = 0; a < d; a++) {
        gradient[a] += r * x[a];
        const hx = h * x[a];
        if (hx !== 0) for (let b = 0; b < d; b++) hessian[a][b] += hx * x[b];
      }
    });
    const step = solve(hessian, gradient);
    // A damped step when the full Newton step would raise the loss (rare with a convex loss).
    let factor = 1;
    const before = loss(theta);
    let next = theta.map((t, a) => t - step[a]);
    while (loss(next) > before && factor > 1e-4) {
      factor /= 2;
      next = theta.map((t, a) => t - factor * step[a]);
    }
    theta = next;
    if (Math.max(...step.map((s) => Math.abs(s * factor))) < 1e-9) {
      converged = true;
      break;
    }
  }
  const round = (v: number) => Math.round(v * 1e8) / 1e8;
  return {
    format: LTR_MODEL_FORMAT,
    version: options.version,
    features: [...options.features],
    mean: mean.map(round),
    scale: scale.map(round),
    weights: theta.map(round),
    training: {
      source: options.source,
      queries,
      candidates: all.length,
      pairs: diffs.length,
      candidateDepth: options.candidateDepth,
      seed: options.seed,
      l2: options.l2,
      maxPairsPerQuery: options.maxPairsPerQuery,
      iterations,
      converged,
      loss: { initial: round(initial), final: round(loss(theta)) },
      ...(options.notes ? { notes: options.notes } : {}),
    },
  };
}

/** `count` items drawn without replacement (a partial Fisher–Yates shuffle), in drawn order. */
function sampleWithout<T>(items: readonly T[], count: number, random: () => number): T[] {
  const pool = [...items];
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count);
}

function softplus(z: number): number {
  return z > 30 ? z : Math.log1p(Math.exp(z));
}

function sigmoidOf(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

function dot(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

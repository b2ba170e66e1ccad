/**
 * L2-regularised logistic regression fitted by Newton's method (iteratively reweighted least squares):
 * deterministic, a handful of iterations for a dozen features, no dependency.
 */
export interface LogisticFit {
  weights: number[];
  bias: number;
  iterations: number;
  converged: boolean;
}

export interface LogisticOptions {
  /** L2 penalty on the weights (not the bias). */
  l2: number;
  maxIterations: number;
  /** Stop when no parameter moves more than this. */
  tolerance: number;
}

export const DEFAULT_LOGISTIC_OPTIONS: Readonly<LogisticOptions> = Object.freeze({
  l2: 1,
  maxIterations: 50,
  tolerance: 1e-9,
});

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/**
 * Fit P(y = 1 | x) = σ(w·x + b). `sampleWeights` (default 1) let each class count equally however
 * unbalanced the gold set is.
 */
export function fitLogistic(
  rows: readonly (readonly number[])[],
  labels: readonly (0 | 1)[],
  options: Partial<LogisticOptions> = {},
  sampleWeights?: readonly number[],
): LogisticFit {
  const opts = { ...DEFAULT_LOGISTIC_OPTIONS, ...options };
  if (rows.length !== labels.length) throw new RangeError(`${rows.length} rows but ${labels.length} labels`);
  if (rows.length === 0) throw new RangeError('no rows to fit');
  const d = rows[0].length;
  // Parameters: weights 0..d-1, bias at d.
  let theta = new Array<number>(d + 1).fill(0);
  let iterations = 0;
  let converged = false;
  while (iterations < opts.maxIterations) {
    iterations++;
    const gradient = new Array<number>(d + 1).fill(0);
    const hessian = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    rows.forEach((row, i) => {
      const x = [...row, 1];
      const p = sigmoid(dot(theta, x));
      const w = sampleWeights?.[i] ?? 1;
      const r = w * (p - labels[i]);
      const h = w * p * (1 - p);
      for (let a = 0; a <= d; a++) {
        gradient[a] += r * x[a];
        for (let b = 0; b <= d; b++) hessian[a][b] += h * x[a] * x[b];
      }
    });
    for (let a = 0; a < d; a++) {
      gradient[a] += opts.l2 * theta[a];
      hessian[a][a] += opts.l2;
    }
    hessian[d][d] += 1e-9;
    const step = solve(hessian, gradient);
    theta = theta.map((value, a) => value - step[a]);
    if (Math.max(...step.map(Math.abs)) < opts.tolerance) {
      converged = true;
      break;
    }
  }
  return { weights: theta.slice(0, d), bias: theta[d], iterations, converged };
}

function dot(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

/** Solve A·x = y by Gaussian elimination with partial pivoting (A is small and positive definite). */
export function solve(matrix: readonly (readonly number[])[], vector: readonly number[]): number[] {
  const n = vector.length;
  const a = matrix.map((row, i) => [...row, vector[i]]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    if (Math.abs(a[pivot][col]) < 1e-15) throw new RangeError('singular system');
    [a[col], a[pivot]] = [a[pivot], a[col]];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const factor = a[r][col] / a[col][col];
      if (factor === 0) continue;
      for (let c = col; c <= n; c++) a[r][c] -= factor * a[col][c];
    }
  }
  return a.map((row, i) => row[n] / row[i]);
}

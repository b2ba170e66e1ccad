/**
 * Holm–Bonferroni step-down adjustment. With the m p-values sorted ascending p(1) <= ... <= p(m),
 * adjusted p(i) = min(1, max_{j <= i} (m - j + 1) * p(j)). Results come back in the input order.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  pValues.forEach((p, index) => {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`pValues[${index}] must be within [0, 1], got ${p}`);
  });
  const m = pValues.length;
  const order = pValues.map((_, index) => index).sort((x, y) => pValues[x] - pValues[y] || x - y);
  const adjusted: number[] = new Array(m);
  let running = 0;
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * pValues[index]));
    adjusted[index] = running;
  });
  return adjusted;
}

/** A figure as reports and baselines keep it: four decimals. */
export function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** A difference with its sign, four decimals: "+0.0109", "-0.0014". */
export function signed4(value: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(4)}`;
}

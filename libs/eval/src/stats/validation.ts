/** Throws unless every value is a finite number. */
export function assertFiniteValues(values: readonly number[], label: string): void {
  values.forEach((value, index) => {
    if (!Number.isFinite(value)) {
      throw new RangeError(`${label}[${index}] must be a finite number, got ${value}`);
    }
  });
}

/** Throws unless `value` is a positive integer. */
export function assertPositiveInteger(value: number, label: string): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${label} must be a positive integer, got ${value}`);
  }
}

/** Throws unless paired samples have the same length. */
export function assertSameLength(a: readonly unknown[], b: readonly unknown[]): void {
  if (a.length !== b.length) {
    throw new RangeError(`Paired samples must have the same length, got ${a.length} and ${b.length}`);
  }
}

/** Paired differences b[i] - a[i], after checking lengths and values. */
export function pairedDifferences(a: readonly number[], b: readonly number[]): number[] {
  assertSameLength(a, b);
  assertFiniteValues(a, 'a');
  assertFiniteValues(b, 'b');
  return a.map((value, index) => b[index] - value);
}

/** Arithmetic mean; 0 for an empty array. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

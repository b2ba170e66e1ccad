/** Scale a vector to unit length so cosine similarity is a dot product; a zero vector stays zero. */
export function l2Normalize(vector: readonly number[]): number[] {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (!Number.isFinite(norm)) throw new RangeError('vector has a non-finite component');
  return norm === 0 ? vector.map(() => 0) : vector.map((value) => value / norm);
}

/**
 * Exact cosine top-k by brute force over unit vectors (row-major, `dimension` wide): the ground truth
 * recall is measured against. Ties break on the lower index (as the SQL breaks them on chunk id, and
 * chunk ids follow the index).
 */
export function exactTopK(
  vectors: Float32Array,
  dimension: number,
  query: ArrayLike<number>,
  k: number,
): { index: number; score: number }[] {
  const rows = vectors.length / dimension;
  const bestIndex = new Int32Array(k).fill(-1);
  const bestScore = new Float64Array(k).fill(-Infinity);
  for (let row = 0, base = 0; row < rows; row++, base += dimension) {
    let dot = 0;
    for (let i = 0; i < dimension; i++) dot += vectors[base + i] * query[i];
    if (dot <= bestScore[k - 1]) continue;
    let position = k - 1;
    while (position > 0 && bestScore[position - 1] < dot) {
      bestScore[position] = bestScore[position - 1];
      bestIndex[position] = bestIndex[position - 1];
      position--;
    }
    bestScore[position] = dot;
    bestIndex[position] = row;
  }
  const out: { index: number; score: number }[] = [];
  for (let i = 0; i < k && bestIndex[i] >= 0; i++) out.push({ index: bestIndex[i], score: bestScore[i] });
  return out;
}

/** |found ∩ truth| / |truth|. */
export function recallAt(found: readonly string[], truth: readonly string[]): number {
  if (truth.length === 0) return 1;
  const wanted = new Set(truth);
  return found.filter((id) => wanted.has(id)).length / truth.length;
}

/** Removes repeated ids, keeping each id at the position where it first appears. */
export function dedupeRanking(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const id of ids) {
    if (!seen.has(id)) {
      seen.add(id);
      result.push(id);
    }
  }
  return result;
}

/**
 * Turns a list of retrieved chunks (best first) into a document ranking: a chunk counts for the document
 * it came from, and a document keeps the rank of its best chunk (as BEIR scores documents, not passages).
 */
export function documentRanking(chunks: readonly { documentId: string }[]): string[] {
  return dedupeRanking(chunks.map((chunk) => chunk.documentId));
}

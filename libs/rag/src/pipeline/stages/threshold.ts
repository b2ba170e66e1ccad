import type { FusedItem } from '../../fusion/reciprocal-rank-fusion';
import { reason } from './plan';
import type { SearchRun } from './plan';

/**
 * The threshold stage: with `minScore` > 0, candidates whose cosine similarity to the query is under it
 * are dropped (the similarity is kept for the hits). A failure keeps every candidate, with a warning.
 */
export async function applyThreshold(
  run: SearchRun,
  candidates: FusedItem[],
  queryVector: Promise<number[]> | undefined,
): Promise<{ candidates: FusedItem[]; similarity: Map<string, number> }> {
  if (!(run.settings.minScore > 0)) return { candidates, similarity: new Map() };
  try {
    const similarity = await run.ports.chunks.similarity(
      candidates.map((c) => c.id),
      await queryVector!,
    );
    return {
      candidates: candidates.filter((c) => (similarity.get(c.id) ?? -1) >= run.settings.minScore),
      similarity,
    };
  } catch (error) {
    run.warnings.push(`The similarity threshold could not be applied: ${reason(error)}`);
    return { candidates, similarity: new Map() };
  }
}

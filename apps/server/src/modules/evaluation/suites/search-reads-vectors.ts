import { resolveSettings } from '@lumina/shared';
import type { SearchSettings } from '@lumina/shared';

/**
 * Whether a search at these settings (over the defaults) reads the chunks' vectors: a dense or hybrid
 * ranker, or a similarity threshold. A suite indexes with vectors only then (BM25, the default, needs none).
 */
export function searchReadsVectors(settings: Partial<SearchSettings>): boolean {
  const resolved = resolveSettings(settings);
  return resolved.ranker !== 'bm25' || resolved.minScore > 0;
}

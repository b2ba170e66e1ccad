import type { SearchOptions } from '@lumina/rag';
import { LOCAL_EMBEDDING_MODEL } from '../../providers/embedding-dimension';

/**
 * Hybrid fusion weights per embedder, chosen by measurement on a TRAIN split (never on test), so a
 * weak embedder cannot drag the lexical ranking down. Embedders not listed fuse with equal weights.
 * The numbers behind each entry are in README.md ("Retrieval quality").
 */
export const FUSION_WEIGHTS: Record<string, SearchOptions['weights']> = {
  [LOCAL_EMBEDDING_MODEL]: { lexical: 1, dense: 0.1 },
};

export function fusionWeightsFor(modelId: string): SearchOptions['weights'] {
  return FUSION_WEIGHTS[modelId] ?? { lexical: 1, dense: 1 };
}

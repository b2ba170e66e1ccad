import type { SearchOptions } from '@lumina/rag';
import { LOCAL_EMBEDDING_MODEL } from '../../providers/embedding-dimension';
import { MINILM_L6_V2_INT8 } from '../../providers/local-models/catalogue';

/**
 * Hybrid fusion weights per embedder, chosen by measurement on a TRAIN split (never on test), so a
 * weak embedder cannot drag the lexical ranking down. Embedders not listed fuse with equal weights.
 * The numbers behind each entry are in docs/measurements.md ("Retrieval quality", "In-process models").
 */
export const FUSION_WEIGHTS: Record<string, SearchOptions['weights']> = {
  // USE-lite on SciFact train (1200/200 chunks), nDCG@10 by dense weight: 0 → 0.6958, 0.02 → 0.6956,
  // 0.05 → 0.6834, 0.1 → 0.6636, 0.2 → 0.6327. Every dense contribution lowers the ranking, so the local
  // encoder only adds provenance (and recall@100 is unchanged at 0.926).
  [LOCAL_EMBEDDING_MODEL]: { lexical: 1, dense: 0 },
  // all-MiniLM-L6-v2 (int8 ONNX) on SciFact train (1200/200 chunks), nDCG@10 by dense weight: 0 (BM25)
  // → 0.696, 0.3 → 0.711, 0.5 → 0.718, 0.7 → 0.716, 1 → 0.716, 1.5 → 0.711. Re-checked with 0.4 → 0.712 and
  // 0.6 → 0.716 (0.5 → 0.717); on NFCorpus train (2,590 queries) 0.3 → 0.336, 0.5 → 0.339, 0.7 → 0.341 (BM25
  // 0.316; the 805 the search reads as another language are ranked by BM25 alone): flat between 0.5 and
  // 0.7 on both, so RRF fused at 0.5. With convex score fusion (FUSION below), on SciFact train: 0.3 → 0.720,
  // 0.5 → 0.734, 0.7 → 0.736, 1 → 0.733, 1.5 → 0.728; NFCorpus train at 0.7 0.350 (RRF at 0.5 0.345).
  [MINILM_L6_V2_INT8.id]: { lexical: 1, dense: 0.7 },
};

export function fusionWeightsFor(modelId: string): SearchOptions['weights'] {
  return FUSION_WEIGHTS[modelId] ?? { lexical: 1, dense: 1 };
}

/**
 * How each embedder's hybrid fuses its lists, chosen on TRAIN splits like the weights; not listed:
 * reciprocal rank fusion. all-MiniLM-L6-v2's cosines carry more than their rank: convex score fusion
 * (each list min-max scaled, added with the weights above) at dense weight 0.7 ranks SciFact train
 * 0.736 against RRF's 0.718 at its best weight (p = 0.0005 after Holm) and NFCorpus train 0.350 against
 * 0.345 (p = 0.001). USE-lite's dense weight is 0, so its fusion does not matter: RRF stays.
 */
export const FUSION: Record<string, SearchOptions['fusion']> = {
  [MINILM_L6_V2_INT8.id]: 'convex',
};

export function fusionFor(modelId: string): SearchOptions['fusion'] {
  return FUSION[modelId] ?? 'rrf';
}

/**
 * The languages each embedder was trained on (ISO 639-1); not listed: every language, or not known (an
 * endpoint's model). A hybrid search of a question in another language gives the dense list no weight
 * (SearchOptions.denseLanguages). all-MiniLM-L6-v2 is English only: on XQuAD, fusing its list at the
 * weight above cost German 0.045, Spanish 0.086 and Chinese 0.227 nDCG@10 against BM25 (English gained
 * 0.003); docs/measurements.md has the runs.
 */
export const DENSE_LANGUAGES: Record<string, readonly string[]> = {
  [LOCAL_EMBEDDING_MODEL]: ['en'],
  [MINILM_L6_V2_INT8.id]: ['en'],
};

export function denseLanguagesFor(modelId: string): readonly string[] | null {
  return DENSE_LANGUAGES[modelId] ?? null;
}

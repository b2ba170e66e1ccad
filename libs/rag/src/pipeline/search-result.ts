import type { SearchSettings } from '@lumina/shared';

/** Which branch found a passage, at what rank and with what score in that branch's list. */
export interface BranchProvenance {
  /** e.g. 'original:bm25', 'original:dense', 'variant-2:bm25', 'hyde:dense' */
  branch: string;
  rank: number;
  score: number;
}

export interface SearchHit {
  chunkId: string;
  documentId: string;
  documentTitle: string;
  externalId: string | null;
  headingPath: string[];
  anchor: string | null;
  text: string;
  spanStart: number;
  spanEnd: number;
  /** Fused score (reciprocal rank fusion over every branch list, or the reranker's score). */
  score: number;
  /** Cosine similarity to the query, when a threshold asked for it. */
  similarity: number | null;
  provenance: BranchProvenance[];
}

export type GeneratorSource = 'llm' | 'prf';

export interface SearchTimings {
  total: number;
  perBranch: Record<string, number>;
  llm: number;
  fuse: number;
  rerank: number;
}

export interface SearchResult {
  query: string;
  settings: SearchSettings;
  results: SearchHit[];
  expansions: { source: GeneratorSource; variants: string[] } | null;
  hyde: { source: GeneratorSource; passage: string } | null;
  belowThreshold: boolean;
  timings: SearchTimings;
  warnings: string[];
}

import type { RerankEvidence } from './learned/rerank-evidence';

/** Re-scores candidate passages for a query (a /v1/rerank endpoint, or an LLM listwise rerank). */
export interface Reranker {
  readonly modelId: string;
  /** Relevance score per passage, same order as given; higher is better. */
  rerank(query: string, passages: string[], signal: AbortSignal): Promise<number[]>;
}

/** One candidate as the search holds it: its passage, its document and where each branch ranked it. */
export interface RerankCandidate {
  chunkId: string;
  documentId: string;
  /** The document's id in its source collection (a BEIR corpus id), when it has one. */
  externalId: string | null;
  title: string;
  headingPath: string[];
  text: string;
  /** The passage's place in its document (0: the first), when known. */
  ordinal?: number;
  /** 1-based rank in the fused list. */
  fusedRank: number;
  /** Per ranked list that found it ('original:bm25', 'hyde:dense', …): its 1-based rank and score. */
  branches: { branch: string; rank: number; score: number }[];
}

export interface EvidenceRerankInput {
  query: string;
  /** In the fused order. */
  candidates: RerankCandidate[];
  /** The index's term statistics for the query and these candidates, in the same order. */
  evidence: RerankEvidence;
}

/** A reranker's score for one candidate and what each feature added to it. */
export interface RerankExplanation {
  score: number;
  /** Feature name → weight × standardised value (the score is their sum plus the bias). */
  contributions: Record<string, number>;
}

/**
 * A reranker that reads the index's own evidence (term statistics, positions, branch ranks) rather than
 * the passages' text alone: the learned reranker. Pure and synchronous at heart; it never calls a model.
 */
export interface EvidenceReranker {
  readonly modelId: string;
  /**
   * The reranker weighs the query's cosine similarity to each candidate: the search embeds the query
   * (when it has an embedder) and adds each candidate's cosine to the evidence.
   */
  readonly needsQueryVector?: boolean;
  /** One explanation per candidate, in the order given. */
  rerankWithEvidence(input: EvidenceRerankInput): RerankExplanation[];
}

export type AnyReranker = Reranker | EvidenceReranker;

export function isEvidenceReranker(reranker: AnyReranker): reranker is EvidenceReranker {
  return typeof (reranker as Partial<EvidenceReranker>).rerankWithEvidence === 'function';
}

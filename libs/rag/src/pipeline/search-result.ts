import type {
  AdaptiveExpansionDecision,
  AnswerabilityVerdict,
  PageRange,
  PassageRerank,
  SearchSettings,
} from '@lumina/shared';

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
  /** Pages of a paged source (PDF) the passage runs over; absent for unpaged ones. */
  pages?: PageRange;
  /** Fused score (reciprocal rank fusion over every branch list, or the reranker's score). */
  score: number;
  /** Cosine similarity to the query, when a threshold asked for it. */
  similarity: number | null;
  provenance: BranchProvenance[];
  /** Set when a reranker ordered the passages: which one (model version), and for the learned reranker
   *  each feature's contribution to the passage's score. */
  rerank?: PassageRerank;
}

export type GeneratorSource = 'llm' | 'prf';

/** Milliseconds. */
export interface SearchTimings {
  total: number;
  /** Each branch's search ('original', 'variant-1', 'hyde'), and each LLM generation ('llm:expansion', 'llm:hyde'). */
  perBranch: Record<string, number>;
  /** The slowest LLM generation (expansion and HyDE run at the same time). */
  llm: number;
  fuse: number;
  rerank: number;
  answerability: number;
}

/** The query variants searched, and where they came from: the LLM, or pseudo-relevance feedback. */
export interface ExpansionTrace {
  source: GeneratorSource;
  /** The expander's model and prompt version (e.g. 'qwen2.5:7b/expansion-v1'); null for PRF. */
  model: string | null;
  variants: string[];
}

/** The hypothetical passage searched (LLM), or the top passages standing in for it (PRF). */
export interface HydeTrace {
  source: GeneratorSource;
  /** The generator's model and prompt version; null for PRF. */
  model: string | null;
  passage: string;
}

export interface SearchResult {
  query: string;
  settings: SearchSettings;
  results: SearchHit[];
  expansions: ExpansionTrace | null;
  hyde: HydeTrace | null;
  /** Whether adaptive branches ran or were skipped, and why; null when no branch was adaptive. */
  adaptive: AdaptiveExpansionDecision | null;
  belowThreshold: boolean;
  /** The answerability decision over the results (null when no model or no evidence). */
  answerability: AnswerabilityVerdict | null;
  timings: SearchTimings;
  warnings: string[];
  /** The question's language (ISO 639-1) as the server detected it; null when it could not be told. */
  language?: string | null;
}

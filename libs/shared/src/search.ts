import type { AdaptiveExpansionDecision, AnswerabilityVerdict } from './answerability';
import type { PageRange, PassageProvenance, PassageRerank } from './chat';
import { objectError, typeError, z } from './contract/zod';
import { DEFAULT_SETTINGS, settingsOverridesSchema } from './settings';
import type { SearchSettings } from './settings';

/** Body of POST /rag/search. */
/** A query of this many characters or more is refused (400): the longest accepted is one shorter. */
export const QUERY_CHAR_LIMIT = 10_000;
export const MAX_QUERY_CHARS = QUERY_CHAR_LIMIT - 1;

/** Body of POST /rag/search. */
export const searchRequestSchema = z
  .strictObject(
    {
      query: z
        .string({ error: typeError('query', 'query must be a string') })
        .min(1, { error: 'query must not be empty' })
        .max(MAX_QUERY_CHARS, { error: `query must be shorter than ${QUERY_CHAR_LIMIT} characters` }),
      /** Overrides of DEFAULT_SETTINGS; unknown keys are refused. */
      settings: settingsOverridesSchema.optional(),
    },
    { error: objectError('the body must be an object: { query, settings? }') },
  )
  .meta({ example: { query: 'How do I fail over the database?', settings: { ...DEFAULT_SETTINGS } } });
export type SearchRequest = z.infer<typeof searchRequestSchema>;

/** One passage of a search answer. */
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
  /** Which branch found the passage ('original:bm25', 'variant-2:bm25', 'hyde:dense', …), at what rank. */
  provenance: PassageProvenance[];
  /** Set when a reranker ordered the passages. */
  rerank?: PassageRerank;
}

/** Who wrote the expansion variants or the HyDE passage: the LLM, or pseudo-relevance feedback offline. */
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

/** The query variants searched, and where they came from. */
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

/** The answer of POST /rag/search. */
export interface SearchResponse {
  query: string;
  /** The settings the search ran with: the request's overrides over the defaults. */
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

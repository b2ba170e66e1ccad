import { collectionIdsSchema } from './collections';
import { adaptiveExpansionDecisionSchema, answerabilityVerdictSchema } from './answerability';
import { pageRangeSchema, passageProvenanceSchema, passageRerankSchema } from './chat';
import { objectError, typeError, z } from './contract/zod';
import { DEFAULT_SETTINGS, searchSettingsSchema, settingsOverridesSchema } from './settings';

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
      collectionIds: collectionIdsSchema.optional(),
    },
    { error: objectError('the body must be an object: { query, settings?, collectionIds? }') },
  )
  .meta({ example: { query: 'How do I fail over the database?', settings: { ...DEFAULT_SETTINGS } } });
export type SearchRequest = z.infer<typeof searchRequestSchema>;

/** One passage of a search answer. */
export const searchHitSchema = z.object({
  chunkId: z.string(),
  documentId: z.string(),
  documentTitle: z.string(),
  externalId: z.string().nullable(),
  headingPath: z.array(z.string()),
  anchor: z.string().nullable(),
  text: z.string(),
  spanStart: z.number(),
  spanEnd: z.number(),
  /** Pages of a paged source (PDF) the passage runs over; absent for unpaged ones. */
  pages: pageRangeSchema.optional(),
  /** Fused score over every branch list (convex score fusion for all-MiniLM-L6-v2, else reciprocal rank
   * fusion), or the reranker's score. */
  score: z.number(),
  /** Cosine similarity to the query, when a threshold asked for it. */
  similarity: z.number().nullable(),
  /** Which branch found the passage ('original:bm25', 'variant-2:bm25', 'hyde:dense', …), at what rank. */
  provenance: z.array(passageProvenanceSchema),
  /** Set when a reranker ordered the passages. */
  rerank: passageRerankSchema.optional(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

/** Who wrote the expansion variants or the HyDE passage: the LLM, or pseudo-relevance feedback offline. */
export const generatorSourceSchema = z.enum(['llm', 'prf']);
export type GeneratorSource = z.infer<typeof generatorSourceSchema>;

/** Milliseconds. */
export const searchTimingsSchema = z.object({
  total: z.number(),
  /** Each branch's search ('original', 'variant-1', 'hyde'), and each LLM generation ('llm:expansion', 'llm:hyde'). */
  perBranch: z.record(z.string(), z.number()),
  /** The slowest LLM generation (expansion and HyDE run at the same time). */
  llm: z.number(),
  fuse: z.number(),
  rerank: z.number(),
  answerability: z.number(),
});
export type SearchTimings = z.infer<typeof searchTimingsSchema>;

/** The query variants searched, and where they came from. */
export const expansionTraceSchema = z.object({
  source: generatorSourceSchema,
  /** The expander's model and prompt version (e.g. 'qwen2.5:7b/expansion-v1'); null for PRF. */
  model: z.string().nullable(),
  variants: z.array(z.string()),
});
export type ExpansionTrace = z.infer<typeof expansionTraceSchema>;

/** The hypothetical passage searched (LLM), or the top passages standing in for it (PRF). */
export const hydeTraceSchema = z.object({
  source: generatorSourceSchema,
  /** The generator's model and prompt version; null for PRF. */
  model: z.string().nullable(),
  passage: z.string(),
});
export type HydeTrace = z.infer<typeof hydeTraceSchema>;

/** The answer of POST /rag/search. */
export const searchResponseSchema = z.object({
  query: z.string(),
  /** The settings the search ran with: the request's overrides over the defaults. */
  settings: searchSettingsSchema,
  /** The collections searched. */
  collectionIds: z.array(z.string()),
  results: z.array(searchHitSchema),
  expansions: expansionTraceSchema.nullable(),
  hyde: hydeTraceSchema.nullable(),
  /** Whether adaptive branches ran or were skipped, and why; null when no branch was adaptive. */
  adaptive: adaptiveExpansionDecisionSchema.nullable(),
  belowThreshold: z.boolean(),
  /** The answerability decision over the results (null when no model or no evidence). */
  answerability: answerabilityVerdictSchema.nullable(),
  timings: searchTimingsSchema,
  warnings: z.array(z.string()),
  /** The question's language (ISO 639-1) as the server detected it; null when it could not be told. */
  language: z.string().nullable().optional(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

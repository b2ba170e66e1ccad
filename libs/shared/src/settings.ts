import { int, objectError, oneOf, uuid, z } from './contract/zod';

/** How a query is ranked: pgvector cosine, Okapi BM25 in SQL, or a fusion of both (hybrid). */
export const RANKERS = ['dense', 'bm25', 'hybrid'] as const;
export type Ranker = (typeof RANKERS)[number];

/**
 * An enhancement that costs LLM calls (expansion, HyDE) is off, on, or adaptive: run only when the
 * original query's fitted confidence is under the expansion policy's threshold.
 */
export type EnhancementMode = boolean | 'adaptive';

export const ENHANCEMENT_MODES: readonly EnhancementMode[] = [false, 'adaptive', true];

/** Per-request retrieval settings, resolved (every field): the server and the web app both start from DEFAULT_SETTINGS. */
export const searchSettingsSchema = z.object({
  enableQueryExpansion: z.union([z.boolean(), z.literal('adaptive')]),
  enableHyDE: z.union([z.boolean(), z.literal('adaptive')]),
  ranker: z.enum(RANKERS),
  enableRerank: z.boolean(),
  /** Passages returned (and given to the answerer). */
  topK: z.number(),
  /** Width of each branch's ranked list before fusion and reranking. */
  candidateK: z.number(),
  /** Results whose best branch score is under this are dropped; 0 keeps everything. */
  minScore: z.number(),
  /** Restrict the search to these documents; empty searches everything. */
  documentIds: z.array(z.string()),
  expansionCount: z.number(),
});
export type SearchSettings = z.infer<typeof searchSettingsSchema>;

export const DEFAULT_SETTINGS: Readonly<SearchSettings> = Object.freeze({
  enableQueryExpansion: false,
  enableHyDE: false,
  ranker: 'hybrid',
  enableRerank: false,
  topK: 6,
  candidateK: 30,
  minScore: 0,
  documentIds: [],
  expansionCount: 3,
});

export const SETTINGS_LIMITS = Object.freeze({
  topK: { min: 1, max: 50 },
  candidateK: { min: 1, max: 200 },
  expansionCount: { min: 1, max: 8 },
  minScore: { min: 0, max: 1 },
});

/** Merge partial overrides over the defaults (the web store keeps only overrides). */
export function resolveSettings(overrides: Partial<SearchSettings> = {}): SearchSettings {
  const merged = { ...DEFAULT_SETTINGS, ...stripUndefined(overrides) };
  return { ...merged, documentIds: [...merged.documentIds] };
}

function enhancement(field: string, description: string) {
  return z
    .union([z.boolean(), z.literal('adaptive')], { error: `${field} must be true, false or "adaptive"` })
    .optional()
    .meta({ description });
}

function between(field: string, limits: { min: number; max: number }) {
  return int(field, limits.min, limits.max).optional();
}

/** Per-request overrides of DEFAULT_SETTINGS; unknown keys are refused. */
export const settingsOverridesSchema = z
  .strictObject(
    {
      enableQueryExpansion: enhancement(
        'enableQueryExpansion',
        'Multi-query expansion (LLM, or pseudo-relevance feedback offline): true, false, or "adaptive" ' +
          "(only where the original query's fitted confidence is under the expansion policy's threshold)",
      ),
      enableHyDE: enhancement(
        'enableHyDE',
        'Hypothetical answer passage searched alongside the query: true, false, or "adaptive"',
      ),
      ranker: oneOf('ranker', RANKERS).optional(),
      enableRerank: z.boolean({ error: 'enableRerank must be true or false' }).optional(),
      topK: between('topK', SETTINGS_LIMITS.topK),
      candidateK: between('candidateK', SETTINGS_LIMITS.candidateK),
      minScore: z
        .number({ error: 'minScore must be a number' })
        .min(SETTINGS_LIMITS.minScore.min, {
          error: `minScore must be ${SETTINGS_LIMITS.minScore.min} or more`,
        })
        .max(SETTINGS_LIMITS.minScore.max, {
          error: `minScore must be at most ${SETTINGS_LIMITS.minScore.max}`,
        })
        .optional()
        .meta({ description: 'Minimum cosine similarity to the query' }),
      documentIds: z
        .array(uuid('documentIds', 'document ids'), { error: 'documentIds must be an array of document ids' })
        .max(1000, { error: 'documentIds must name at most 1000 documents' })
        .optional()
        .meta({ description: 'Search only these documents (empty: all)' }),
      expansionCount: between('expansionCount', SETTINGS_LIMITS.expansionCount),
    },
    { error: objectError('settings must be an object') },
  )
  .meta({ example: { ...DEFAULT_SETTINGS } });
export type SettingsOverrides = z.infer<typeof settingsOverridesSchema>;

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

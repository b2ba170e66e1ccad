/** How a query is ranked: pgvector cosine, Okapi BM25 in SQL, or reciprocal rank fusion of both. */
export type Ranker = 'dense' | 'bm25' | 'hybrid';

export const RANKERS: readonly Ranker[] = ['dense', 'bm25', 'hybrid'];

/**
 * An enhancement that costs LLM calls (expansion, HyDE) is off, on, or adaptive: run only when the
 * original query's fitted confidence is under the expansion policy's threshold.
 */
export type EnhancementMode = boolean | 'adaptive';

export const ENHANCEMENT_MODES: readonly EnhancementMode[] = [false, 'adaptive', true];

/** Per-request retrieval settings. The server and the web app both start from DEFAULT_SETTINGS. */
export interface SearchSettings {
  enableQueryExpansion: EnhancementMode;
  enableHyDE: EnhancementMode;
  ranker: Ranker;
  enableRerank: boolean;
  /** Passages returned (and given to the answerer). */
  topK: number;
  /** Width of each branch's ranked list before fusion and reranking. */
  candidateK: number;
  /** Results whose best branch score is under this are dropped; 0 keeps everything. */
  minScore: number;
  /** Restrict the search to these documents; empty searches everything. */
  documentIds: string[];
  expansionCount: number;
}

export const DEFAULT_SETTINGS: Readonly<SearchSettings> = Object.freeze({
  enableQueryExpansion: false,
  enableHyDE: false,
  ranker: 'bm25',
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

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

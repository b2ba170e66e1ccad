import { resolveSettings } from '@lumina/shared';
import type { SearchHit, SearchResult } from '../pipeline/search-result';

/** A search hit for unit tests: the given fields over empty defaults (title = document id, score 1). */
export function searchHit(hit: Partial<SearchHit> & Pick<SearchHit, 'chunkId' | 'documentId'>): SearchHit {
  const text = hit.text ?? '';
  return {
    documentTitle: hit.documentId,
    externalId: null,
    headingPath: [],
    anchor: null,
    text,
    spanStart: 0,
    spanEnd: text.length,
    score: 1,
    similarity: null,
    provenance: [],
    ...hit,
  };
}

/** A search result for unit tests: these hits under the default settings, nothing else traced. */
export function searchResult(results: SearchHit[], overrides: Partial<SearchResult> = {}): SearchResult {
  return {
    query: '',
    settings: resolveSettings(),
    collectionIds: [],
    results,
    expansions: null,
    hyde: null,
    adaptive: null,
    belowThreshold: false,
    answerability: null,
    timings: { total: 0, perBranch: {}, llm: 0, fuse: 0, rerank: 0, answerability: 0 },
    warnings: [],
    ...overrides,
  };
}

/** POST /rag/search: the ranked passages, the variants and HyDE passage searched, the decisions and timings. */
import { searchResponseSchema } from '@lumina/shared';
import type { SearchRequest, SearchResponse, SearchSettings } from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import { parsedBy } from './read';
import type { RequestOptions, Transport } from './transport';

/** The answer of POST /rag/search, or null when it breaks the contract. */
export const parseSearchResponse = parsedBy(searchResponseSchema);

/** A search's options: the collections to read (none: every collection the key may read). */
export interface SearchOptions extends RequestOptions {
  collectionIds?: readonly string[];
}

export function searchApi(http: Transport) {
  return {
    /** POST /rag/search with the fully merged settings, so the server never guesses. */
    search(
      query: string,
      settings: SearchSettings,
      { signal, collectionIds }: SearchOptions = {},
    ): Promise<SearchResponse> {
      const body: SearchRequest = { query, settings };
      if (collectionIds?.length) body.collectionIds = [...collectionIds];
      return http.json(
        API_OPERATIONS.search,
        { body, signal },
        parseSearchResponse,
        'expected a search answer',
      );
    },
  };
}

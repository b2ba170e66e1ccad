'use client';

import { useCallback, useEffect } from 'react';
import { collectionsStore, loadCollections, useCollectionsStore } from '../store/collections.store';
import { useApiClient } from './use-api-client';

/**
 * Every collection (loaded once for the whole app, shared by the chat switcher, the settings, the
 * trace and the documents page); `reload` after a change.
 */
export function useCollections() {
  const api = useApiClient();
  const collections = useCollectionsStore((state) => state.known);
  const loadState = useCollectionsStore((state) => state.loadState);
  const error = useCollectionsStore((state) => state.loadError);
  const missing = useCollectionsStore((state) => state.missing);

  useEffect(() => {
    if (collectionsStore.getState().loadState === 'idle') void loadCollections(api);
  }, [api]);

  const reload = useCallback(() => void loadCollections(api), [api]);
  return { collections, loading: loadState === 'loading', error, missing, reload };
}

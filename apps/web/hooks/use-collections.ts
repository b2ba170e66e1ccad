'use client';

import { useCallback, useEffect } from 'react';
import { collectionsStore, loadCollections, useCollectionsStore } from '../store/collections.store';
import { credentialsStore, useCredentials } from '../store/credentials.store';
import { useApiClient } from './use-api-client';

/**
 * Every collection (loaded once for the whole app, shared by the chat switcher, the settings, the
 * trace and the documents page, and again after signing in with another key, which may read others);
 * `reload` after a change.
 */
export function useCollections() {
  const api = useApiClient();
  const apiKey = useCredentials((state) => state.apiKey);
  const collections = useCollectionsStore((state) => state.known);
  const loadState = useCollectionsStore((state) => state.loadState);
  const error = useCollectionsStore((state) => state.loadError);
  const missing = useCollectionsStore((state) => state.missing);

  useEffect(() => {
    const state = collectionsStore.getState();
    if (state.loadState === 'idle' || state.loadedFor !== apiKey)
      void loadCollections(api, collectionsStore, apiKey);
  }, [api, apiKey]);

  const reload = useCallback(
    () => void loadCollections(api, collectionsStore, credentialsStore.getState().apiKey),
    [api],
  );
  return { collections, loading: loadState === 'loading', error, missing, reload };
}

'use client';

import { useEffect } from 'react';
import { credentialsStore, useCredentials } from '../store/credentials.store';
import { identityStore, loadIdentity, useIdentityStore } from '../store/identity.store';
import { useApiClient } from './use-api-client';

/**
 * Whom the server sees with the key signed in with (read once for the whole app, and again after
 * signing in or out); `isAdmin` once it is known to be an admin.
 */
export function useIdentity() {
  const api = useApiClient();
  const apiKey = useCredentials((state) => state.apiKey);
  const identity = useIdentityStore((state) => state.identity);
  const loadState = useIdentityStore((state) => state.loadState);

  useEffect(() => {
    const state = identityStore.getState();
    if (state.loadState === 'idle' || state.loadedFor !== apiKey)
      void loadIdentity(api, identityStore, apiKey);
  }, [api, apiKey]);

  return {
    identity,
    /** Still asking (the first time, or for another key). */
    loading: loadState === 'idle' || loadState === 'loading',
    isAdmin: identity?.role === 'admin',
    reload: () => void loadIdentity(api, identityStore, credentialsStore.getState().apiKey),
  };
}

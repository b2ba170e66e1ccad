import type { AuthIdentity } from '@lumina/shared';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../lib/api-client';

export type IdentityLoad = 'idle' | 'loading' | 'ready' | 'error';

/**
 * Whom the server sees (GET /auth/me) with the API key signed in with, or without one on a local server:
 * the sign-in button names it, and the navigation offers admin pages to an admin.
 */
export interface IdentityState {
  /** Null before it is known, and when the server accepts no request without a (valid) key. */
  identity: AuthIdentity | null;
  loadState: IdentityLoad;
  /** The API key the identity was (or is being) read with; undefined before the first load. */
  loadedFor: string | null | undefined;

  setLoading: (apiKey: string | null) => void;
  /** The server's answer for `apiKey` (null: it refused, or could not be asked). */
  setIdentity: (identity: AuthIdentity | null, apiKey: string | null) => void;
}

export function createIdentityStore() {
  return createStore<IdentityState>()((set) => ({
    identity: null,
    loadState: 'idle',
    loadedFor: undefined,
    // Another key's identity is not shown while this one's loads.
    setLoading: (apiKey) =>
      set((state) => ({
        loadState: 'loading',
        loadedFor: apiKey,
        identity: state.loadedFor === apiKey ? state.identity : null,
      })),
    setIdentity: (identity, apiKey) =>
      set({ identity, loadedFor: apiKey, loadState: identity ? 'ready' : 'error' }),
  }));
}

export type IdentityStore = ReturnType<typeof createIdentityStore>;

export const identityStore: IdentityStore = createIdentityStore();

export function useIdentityStore<T>(selector: (state: IdentityState) => T): T {
  return useStore(identityStore, selector);
}

/** The latest load of each store: an answer to an earlier one (e.g. with the previous key) is dropped. */
const latestLoad = new WeakMap<IdentityStore, number>();

/** Asks the server whom it sees with `apiKey` (already set on the client) and keeps the answer. */
export async function loadIdentity(
  api: Pick<ApiClient, 'getIdentity'>,
  store: IdentityStore = identityStore,
  apiKey: string | null = null,
): Promise<void> {
  const load = (latestLoad.get(store) ?? 0) + 1;
  latestLoad.set(store, load);
  store.getState().setLoading(apiKey);
  let found: AuthIdentity | null = null;
  try {
    found = await api.getIdentity();
  } catch {
    // No key, a refused key or an unreachable server: nobody is signed in (the pages say why they fail).
  }
  if (latestLoad.get(store) === load) store.getState().setIdentity(found, apiKey);
}

/** The identity to keep after a sign-in checked it, so it is not asked for again. */
export function keepIdentity(
  identity: AuthIdentity,
  apiKey: string,
  store: IdentityStore = identityStore,
): void {
  latestLoad.set(store, (latestLoad.get(store) ?? 0) + 1);
  store.getState().setIdentity(identity, apiKey);
}

import { useStore } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';

/**
 * The API key the person signed in with (servers with ADMIN_API_KEY require one for every request). Kept
 * in sessionStorage, so it is forgotten with the tab; sent only as a header, never in a URL.
 */
export interface CredentialsState {
  apiKey: string | null;
  setApiKey: (key: string | null) => void;
}

export const CREDENTIALS_STORAGE_KEY = 'lumina.credentials';

export function createCredentialsStore({
  storage,
  skipHydration = false,
}: { storage?: StateStorage; skipHydration?: boolean } = {}) {
  return createStore<CredentialsState>()(
    persist(
      (set) => ({
        apiKey: null,
        setApiKey: (key) => set({ apiKey: key && key.trim() ? key.trim() : null }),
      }),
      {
        name: CREDENTIALS_STORAGE_KEY,
        version: 2,
        storage: createJSONStorage(() => storage ?? window.sessionStorage),
        skipHydration,
        partialize: (state) => ({ apiKey: state.apiKey }),
        // Version 1 called it the admin key.
        migrate: (persisted) => {
          const old = persisted as { adminKey?: unknown; apiKey?: unknown } | null;
          return { apiKey: old?.apiKey ?? old?.adminKey ?? null };
        },
        merge: (persisted, current) => {
          const key = (persisted as { apiKey?: unknown } | null)?.apiKey;
          return { ...current, apiKey: typeof key === 'string' && key ? key : null };
        },
      },
    ),
  );
}

export const credentialsStore = createCredentialsStore({ skipHydration: true });

export function useCredentials<T>(selector: (state: CredentialsState) => T): T {
  return useStore(credentialsStore, selector);
}

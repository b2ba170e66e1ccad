import { useStore } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';

/**
 * The admin key the person entered (servers with ADMIN_API_KEY require it for admin writes). Kept in
 * sessionStorage, so it is forgotten with the tab; sent only as a header, never in a URL.
 */
export interface CredentialsState {
  adminKey: string | null;
  setAdminKey: (key: string | null) => void;
}

export const CREDENTIALS_STORAGE_KEY = 'lumina.credentials';

export function createCredentialsStore({
  storage,
  skipHydration = false,
}: { storage?: StateStorage; skipHydration?: boolean } = {}) {
  return createStore<CredentialsState>()(
    persist(
      (set) => ({
        adminKey: null,
        setAdminKey: (key) => set({ adminKey: key && key.trim() ? key.trim() : null }),
      }),
      {
        name: CREDENTIALS_STORAGE_KEY,
        version: 1,
        storage: createJSONStorage(() => storage ?? window.sessionStorage),
        skipHydration,
        partialize: (state) => ({ adminKey: state.adminKey }),
        merge: (persisted, current) => {
          const key = (persisted as { adminKey?: unknown } | null)?.adminKey;
          return { ...current, adminKey: typeof key === 'string' && key ? key : null };
        },
      },
    ),
  );
}

export const credentialsStore = createCredentialsStore({ skipHydration: true });

export function useCredentials<T>(selector: (state: CredentialsState) => T): T {
  return useStore(credentialsStore, selector);
}

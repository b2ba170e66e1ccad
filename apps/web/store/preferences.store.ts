import { useStore } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';

/** How the app shows things (not sent to the server). */
export interface Preferences {
  /** Show the retrieval panel (passages, branches, variants, HyDE, timings) under each answer. */
  showRetrievalTrace: boolean;
}

export const DEFAULT_PREFERENCES: Readonly<Preferences> = Object.freeze({ showRetrievalTrace: false });

export interface PreferencesState extends Preferences {
  setPreference: <K extends keyof Preferences>(key: K, value: Preferences[K]) => void;
  resetPreferences: () => void;
}

export const PREFERENCES_STORAGE_KEY = 'lumina.preferences';

export function normalisePreferences(input: unknown): Preferences {
  const raw = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  return {
    showRetrievalTrace:
      typeof raw.showRetrievalTrace === 'boolean'
        ? raw.showRetrievalTrace
        : DEFAULT_PREFERENCES.showRetrievalTrace,
  };
}

export function createPreferencesStore({
  storage,
  skipHydration = false,
}: { storage?: StateStorage; skipHydration?: boolean } = {}) {
  return createStore<PreferencesState>()(
    persist(
      (set) => ({
        ...DEFAULT_PREFERENCES,
        setPreference: (key, value) => set({ [key]: value } as Partial<Preferences>),
        resetPreferences: () => set({ ...DEFAULT_PREFERENCES }),
      }),
      {
        name: PREFERENCES_STORAGE_KEY,
        version: 1,
        storage: createJSONStorage(() => storage ?? window.localStorage),
        skipHydration,
        partialize: (state): Preferences => ({ showRetrievalTrace: state.showRetrievalTrace }),
        merge: (persisted, current) => ({ ...current, ...normalisePreferences(persisted) }),
      },
    ),
  );
}

export const preferencesStore = createPreferencesStore({ skipHydration: true });

export function usePreferences<T>(selector: (state: PreferencesState) => T): T {
  return useStore(preferencesStore, selector);
}

import type { StateStorage } from 'zustand/middleware';
import { createPreferencesStore, DEFAULT_PREFERENCES, PREFERENCES_STORAGE_KEY } from './preferences.store';

function memoryStorage(initial: Record<string, string> = {}): StateStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (name) => data.get(name) ?? null,
    setItem: (name, value) => void data.set(name, value),
    removeItem: (name) => void data.delete(name),
  };
}

describe('preferences store', () => {
  it('starts from the defaults, persists a change and restores it', async () => {
    const storage = memoryStorage();
    const first = createPreferencesStore({ storage });
    expect(first.getState().showRetrievalTrace).toBe(DEFAULT_PREFERENCES.showRetrievalTrace);
    first.getState().setPreference('showRetrievalTrace', true);

    const second = createPreferencesStore({ storage, skipHydration: true });
    await second.persist.rehydrate();
    expect(second.getState().showRetrievalTrace).toBe(true);
    second.getState().resetPreferences();
    expect(second.getState().showRetrievalTrace).toBe(false);
  });

  it('ignores invalid stored values', async () => {
    const storage = memoryStorage({
      [PREFERENCES_STORAGE_KEY]: JSON.stringify({ state: { showRetrievalTrace: 'yes' }, version: 1 }),
    });
    const store = createPreferencesStore({ storage, skipHydration: true });
    await store.persist.rehydrate();
    expect(store.getState().showRetrievalTrace).toBe(false);
  });
});

import type { StateStorage } from 'zustand/middleware';
import { CREDENTIALS_STORAGE_KEY, createCredentialsStore } from './credentials.store';

/** A synchronous in-memory stand-in for sessionStorage. */
function memoryStorage(initial: Record<string, string> = {}): StateStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (name) => data.get(name) ?? null,
    setItem: (name, value) => void data.set(name, value),
    removeItem: (name) => void data.delete(name),
  };
}

describe('credentials store', () => {
  it('keeps the trimmed API key, forgets a blank one, and restores it in a new store', async () => {
    const storage = memoryStorage();
    const store = createCredentialsStore({ storage });
    store.getState().setApiKey('  lum_abc  ');
    expect(store.getState().apiKey).toBe('lum_abc');
    expect(JSON.parse(storage.data.get(CREDENTIALS_STORAGE_KEY)!)).toEqual({
      state: { apiKey: 'lum_abc' },
      version: 2,
    });

    const next = createCredentialsStore({ storage, skipHydration: true });
    await next.persist.rehydrate();
    expect(next.getState().apiKey).toBe('lum_abc');

    next.getState().setApiKey('   ');
    expect(next.getState().apiKey).toBeNull();
  });

  it('reads the admin key an earlier version stored as the API key', async () => {
    const storage = memoryStorage({
      [CREDENTIALS_STORAGE_KEY]: JSON.stringify({ state: { adminKey: 'an-admin-key-of-old' }, version: 1 }),
    });
    const store = createCredentialsStore({ storage, skipHydration: true });
    await store.persist.rehydrate();
    expect(store.getState().apiKey).toBe('an-admin-key-of-old');
  });

  it('ignores a stored value that is not a string', async () => {
    const storage = memoryStorage({
      [CREDENTIALS_STORAGE_KEY]: JSON.stringify({ state: { apiKey: 42 }, version: 2 }),
    });
    const store = createCredentialsStore({ storage, skipHydration: true });
    await store.persist.rehydrate();
    expect(store.getState().apiKey).toBeNull();
  });
});

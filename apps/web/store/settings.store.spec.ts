import { DEFAULT_SETTINGS, SETTINGS_LIMITS } from '@lumina/shared';
import type { StateStorage } from 'zustand/middleware';
import {
  createSettingsStore,
  getEffectiveSettings,
  normaliseOverrides,
  SETTINGS_STORAGE_KEY,
  SETTINGS_STORAGE_VERSION,
} from './settings.store';

/** A synchronous in-memory stand-in for localStorage. */
function memoryStorage(initial: Record<string, string> = {}): StateStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (name) => data.get(name) ?? null,
    setItem: (name, value) => void data.set(name, value),
    removeItem: (name) => void data.delete(name),
  };
}

function stored(storage: { data: Map<string, string> }): unknown {
  const raw = storage.data.get(SETTINGS_STORAGE_KEY);
  return raw === undefined ? undefined : JSON.parse(raw);
}

describe('settings store', () => {
  it('starts with no overrides, so the effective settings are the defaults', () => {
    const store = createSettingsStore({ storage: memoryStorage() });
    expect(store.getState().overrides).toEqual({});
    expect(getEffectiveSettings(store)).toEqual(DEFAULT_SETTINGS);
  });

  it('merges partial updates over earlier overrides and over the defaults', () => {
    const store = createSettingsStore({ storage: memoryStorage() });
    store.getState().updateSettings({ enableHyDE: true });
    store.getState().updateSettings({ ranker: 'bm25', topK: 10 });

    expect(store.getState().overrides).toEqual({ enableHyDE: true, ranker: 'bm25', topK: 10 });
    expect(getEffectiveSettings(store)).toEqual({
      ...DEFAULT_SETTINGS,
      enableHyDE: true,
      ranker: 'bm25',
      topK: 10,
    });
  });

  it('keeps only real overrides: a value set back to its default is dropped', () => {
    const store = createSettingsStore({ storage: memoryStorage() });
    store.getState().updateSettings({ enableRerank: true, candidateK: 60 });
    store.getState().updateSettings({ enableRerank: DEFAULT_SETTINGS.enableRerank });
    store.getState().updateSettings({ candidateK: undefined });

    expect(store.getState().overrides).toEqual({});
  });

  it('clamps numbers to SETTINGS_LIMITS and rounds counts to whole numbers', () => {
    const store = createSettingsStore({ storage: memoryStorage() });
    store.getState().updateSettings({ topK: 500, candidateK: 0, expansionCount: 4.6, minScore: 1.7 });

    expect(store.getState().overrides).toEqual({
      topK: SETTINGS_LIMITS.topK.max,
      candidateK: SETTINGS_LIMITS.candidateK.min,
      expansionCount: 5,
      minScore: SETTINGS_LIMITS.minScore.max,
    });
  });

  it('resets to the defaults and forgets the stored overrides', () => {
    const storage = memoryStorage();
    const store = createSettingsStore({ storage });
    store.getState().updateSettings({ enableQueryExpansion: true, expansionCount: 5 });
    store.getState().resetSettings();

    expect(store.getState().overrides).toEqual({});
    expect(getEffectiveSettings(store)).toEqual(DEFAULT_SETTINGS);
    expect(stored(storage)).toEqual({ state: { overrides: {} }, version: SETTINGS_STORAGE_VERSION });
  });

  it('persists only the overrides and restores them in a new store (round trip)', async () => {
    const storage = memoryStorage();
    const first = createSettingsStore({ storage });
    first.getState().updateSettings({ enableHyDE: true, minScore: 0.25, documentIds: ['doc-1'] });

    expect(stored(storage)).toEqual({
      state: { overrides: { enableHyDE: true, minScore: 0.25, documentIds: ['doc-1'] } },
      version: SETTINGS_STORAGE_VERSION,
    });

    const second = createSettingsStore({ storage, skipHydration: true });
    expect(second.getState().overrides).toEqual({});
    await second.persist.rehydrate();
    expect(second.getState().overrides).toEqual({ enableHyDE: true, minScore: 0.25, documentIds: ['doc-1'] });
    expect(getEffectiveSettings(second)).toEqual({
      ...DEFAULT_SETTINGS,
      enableHyDE: true,
      minScore: 0.25,
      documentIds: ['doc-1'],
    });
  });

  it('ignores invalid or unknown values found in storage', async () => {
    const storage = memoryStorage({
      [SETTINGS_STORAGE_KEY]: JSON.stringify({
        state: {
          overrides: { ranker: 'magic', topK: '12', enableRerank: true, colour: 'red', candidateK: 999 },
        },
        version: SETTINGS_STORAGE_VERSION,
      }),
    });
    const store = createSettingsStore({ storage, skipHydration: true });
    await store.persist.rehydrate();

    expect(store.getState().overrides).toEqual({
      enableRerank: true,
      candidateK: SETTINGS_LIMITS.candidateK.max,
    });
  });

  it('survives unreadable storage by falling back to the defaults', async () => {
    const storage = memoryStorage({ [SETTINGS_STORAGE_KEY]: '{not json' });
    const store = createSettingsStore({ storage, skipHydration: true });
    await store.persist.rehydrate().catch(() => undefined);

    expect(getEffectiveSettings(store)).toEqual(DEFAULT_SETTINGS);
  });

  it('does not share the defaults array with the effective settings', () => {
    const store = createSettingsStore({ storage: memoryStorage() });
    const effective = getEffectiveSettings(store);
    effective.documentIds.push('mutated');
    expect(DEFAULT_SETTINGS.documentIds).toEqual([]);
  });
});

describe('normaliseOverrides', () => {
  it('keeps the three states of expansion and HyDE and drops any other value', () => {
    expect(normaliseOverrides({ enableQueryExpansion: 'adaptive', enableHyDE: true })).toEqual({
      enableQueryExpansion: 'adaptive',
      enableHyDE: true,
    });
    expect(normaliseOverrides({ enableQueryExpansion: 'sometimes', enableHyDE: 'true' })).toEqual({});
    expect(normaliseOverrides({ enableRerank: 'adaptive' })).toEqual({});
  });

  it('returns an empty object for anything that is not an object', () => {
    expect(normaliseOverrides(null)).toEqual({});
    expect(normaliseOverrides('topK=3')).toEqual({});
    expect(normaliseOverrides(undefined)).toEqual({});
  });

  it('deduplicates document ids and drops empty ones', () => {
    expect(normaliseOverrides({ documentIds: ['a', 'a', '', 3, 'b'] })).toEqual({ documentIds: ['a', 'b'] });
    expect(normaliseOverrides({ documentIds: [] })).toEqual({});
  });
});

import {
  DEFAULT_SETTINGS,
  RANKERS,
  resolveSettings,
  SETTINGS_LIMITS,
  type Ranker,
  type SearchSettings,
  type SettingsOverrides,
} from '@lumina/shared';
import { useMemo } from 'react';
import { useStore } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';

// The store keeps only what the person changed (SettingsOverrides, the shared contract's shape);
// everything else follows DEFAULT_SETTINGS, even when defaults move.

export interface SettingsState {
  overrides: SettingsOverrides;
  /** Merge a change; a key set to its default (or to undefined) stops being an override. */
  updateSettings: (partial: SettingsOverrides) => void;
  resetSettings: () => void;
}

export const SETTINGS_STORAGE_KEY = 'lumina.settings';
export const SETTINGS_STORAGE_VERSION = 1;

type NumericSetting = keyof typeof SETTINGS_LIMITS;
type EnhancementSetting = 'enableQueryExpansion' | 'enableHyDE';

const ENHANCEMENT_SETTINGS: readonly EnhancementSetting[] = ['enableQueryExpansion', 'enableHyDE'];
const INTEGER_SETTINGS: readonly NumericSetting[] = ['topK', 'candidateK', 'expansionCount'];

function clamp(value: number, key: NumericSetting): number {
  const { min, max } = SETTINGS_LIMITS[key];
  return Math.min(max, Math.max(min, value));
}

function isRanker(value: unknown): value is Ranker {
  return typeof value === 'string' && (RANKERS as readonly string[]).includes(value);
}

/**
 * Keeps only valid overrides that differ from the defaults: wrong types and unknown keys are
 * dropped, numbers are clamped to SETTINGS_LIMITS. Also cleans whatever was found in storage.
 */
export function normaliseOverrides(input: unknown): SettingsOverrides {
  if (typeof input !== 'object' || input === null) return {};
  const raw = input as Record<string, unknown>;
  const out: SettingsOverrides = {};

  for (const key of ENHANCEMENT_SETTINGS) {
    const value = raw[key];
    if ((typeof value === 'boolean' || value === 'adaptive') && value !== DEFAULT_SETTINGS[key])
      out[key] = value;
  }
  if (typeof raw.enableRerank === 'boolean' && raw.enableRerank !== DEFAULT_SETTINGS.enableRerank)
    out.enableRerank = raw.enableRerank;
  if (isRanker(raw.ranker) && raw.ranker !== DEFAULT_SETTINGS.ranker) out.ranker = raw.ranker;

  for (const key of INTEGER_SETTINGS) {
    const value = raw[key];
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    const clamped = clamp(Math.round(value), key);
    if (clamped !== DEFAULT_SETTINGS[key]) out[key] = clamped;
  }
  if (typeof raw.minScore === 'number' && Number.isFinite(raw.minScore)) {
    const clamped = clamp(raw.minScore, 'minScore');
    if (clamped !== DEFAULT_SETTINGS.minScore) out.minScore = clamped;
  }
  if (Array.isArray(raw.documentIds)) {
    const ids = [
      ...new Set(raw.documentIds.filter((id): id is string => typeof id === 'string' && id !== '')),
    ];
    if (ids.length > 0) out.documentIds = ids;
  }
  return out;
}

export interface SettingsStoreOptions {
  /** Where overrides are kept; the browser's localStorage by default. */
  storage?: StateStorage;
  /** Defer reading storage until `persist.rehydrate()`, so server and first client render agree. */
  skipHydration?: boolean;
}

export function createSettingsStore({ storage, skipHydration = false }: SettingsStoreOptions = {}) {
  return createStore<SettingsState>()(
    persist(
      (set) => ({
        overrides: {},
        updateSettings: (partial) =>
          set((state) => ({ overrides: normaliseOverrides({ ...state.overrides, ...partial }) })),
        resetSettings: () => set({ overrides: {} }),
      }),
      {
        name: SETTINGS_STORAGE_KEY,
        version: SETTINGS_STORAGE_VERSION,
        storage: createJSONStorage(() => storage ?? window.localStorage),
        skipHydration,
        partialize: (state) => ({ overrides: state.overrides }),
        merge: (persisted, current) => ({
          ...current,
          overrides: normaliseOverrides(
            typeof persisted === 'object' && persisted !== null
              ? (persisted as { overrides?: unknown }).overrides
              : undefined,
          ),
        }),
      },
    ),
  );
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;

/** The app's settings store; a client component rehydrates it from localStorage after mount. */
export const settingsStore: SettingsStore = createSettingsStore({ skipHydration: true });

export function useSettingsStore<T>(selector: (state: SettingsState) => T): T {
  return useStore(settingsStore, selector);
}

/** DEFAULT_SETTINGS with the person's overrides on top: what a request sends. */
export function useEffectiveSettings(): SearchSettings {
  const overrides = useSettingsStore((state) => state.overrides);
  return useMemo(() => resolveSettings(overrides), [overrides]);
}

/** The same outside React, read at the moment of sending. */
export function getEffectiveSettings(store: SettingsStore = settingsStore): SearchSettings {
  return resolveSettings(store.getState().overrides);
}

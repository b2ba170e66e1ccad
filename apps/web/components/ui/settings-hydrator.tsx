'use client';

import { useEffect } from 'react';
import { COLLECTIONS_STORAGE_KEY, collectionsStore } from '../../store/collections.store';
import { credentialsStore } from '../../store/credentials.store';
import { PREFERENCES_STORAGE_KEY, preferencesStore } from '../../store/preferences.store';
import { SETTINGS_STORAGE_KEY, settingsStore } from '../../store/settings.store';

/**
 * Loads the saved settings, preferences and searched collections after the first render (so server
 * and client markup agree), and follows changes made in other tabs.
 */
export function SettingsHydrator() {
  useEffect(() => {
    void settingsStore.persist.rehydrate();
    void preferencesStore.persist.rehydrate();
    void credentialsStore.persist.rehydrate();
    void collectionsStore.persist.rehydrate();
    const onStorage = (event: StorageEvent) => {
      if (event.key === SETTINGS_STORAGE_KEY) void settingsStore.persist.rehydrate();
      if (event.key === PREFERENCES_STORAGE_KEY) void preferencesStore.persist.rehydrate();
      if (event.key === COLLECTIONS_STORAGE_KEY) void collectionsStore.persist.rehydrate();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  return null;
}

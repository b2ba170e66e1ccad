'use client';

import { useEffect } from 'react';
import { SETTINGS_STORAGE_KEY, settingsStore } from '../../store/settings.store';

/**
 * Loads the saved settings after the first render (so server and client markup agree), and
 * follows changes made in other tabs.
 */
export function SettingsHydrator() {
  useEffect(() => {
    void settingsStore.persist.rehydrate();
    const onStorage = (event: StorageEvent) => {
      if (event.key === SETTINGS_STORAGE_KEY) void settingsStore.persist.rehydrate();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  return null;
}

'use client';

import { useSearchParams } from 'next/navigation';
import { useCallback, useMemo, useRef } from 'react';
import { nextSearch } from '../lib/url-state';

/**
 * Named values kept in the address bar (see lib/url-state.ts): reads them from the current URL and
 * replaces the URL on change without a navigation. The page needs a Suspense boundary above it.
 */
export function useUrlState<K extends string>(
  defaults: Record<K, string>,
): [Record<K, string>, (changes: Partial<Record<K, string | number>>) => void] {
  const params = useSearchParams();
  const fallback = useRef(defaults);
  const values = useMemo(
    () =>
      Object.fromEntries(
        Object.entries<string>(fallback.current).map(([name, value]) => [name, params.get(name) ?? value]),
      ) as Record<K, string>,
    [params],
  );
  const update = useCallback((changes: Partial<Record<K, string | number>>) => {
    const search = nextSearch(window.location.search, changes, fallback.current);
    window.history.replaceState(null, '', `${window.location.pathname}${search}${window.location.hash}`);
  }, []);
  return [values, update];
}

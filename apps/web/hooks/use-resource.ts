'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiErrorCode } from '@lumina/shared';
import { isApiError } from '../lib/api-errors';

export interface Resource<T> {
  data: T | null;
  loading: boolean;
  error: string | null;
  errorCode: ApiErrorCode | null;
  /** True when the endpoint does not exist on this server (404 on an unknown route). */
  missing: boolean;
  reload: () => void;
}

/**
 * Loads `load(signal)` whenever `key` changes; keeps the previous data on screen while the next
 * loads (no flashing, no layout jump); aborts superseded requests; errors become sentences.
 */
export function useResource<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>): Resource<T> {
  const [state, setState] = useState<{
    data: T | null;
    loading: boolean;
    error: string | null;
    errorCode: ApiErrorCode | null;
    missing: boolean;
  }>({
    data: null,
    loading: key !== null,
    error: null,
    errorCode: null,
    missing: false,
  });
  const [version, setVersion] = useState(0);
  const loader = useRef(load);
  useEffect(() => {
    loader.current = load;
  });

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    setState((previous) => ({ ...previous, loading: true }));
    loader
      .current(controller.signal)
      .then((data) => {
        if (!controller.signal.aborted)
          setState({ data, loading: false, error: null, errorCode: null, missing: false });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const code = isApiError(error) ? error.code : null;
        setState((previous) => ({
          data: previous.data,
          loading: false,
          error: isApiError(error)
            ? error.message
            : 'Something went wrong in the web app. Reload the page and try again.',
          errorCode: code,
          missing: isApiError(error) && error.missingRoute,
        }));
        if (!isApiError(error)) console.error(error);
      });
    return () => controller.abort();
  }, [key, version]);

  const reload = useCallback(() => setVersion((value) => value + 1), []);
  return { ...state, reload };
}

/** A value that follows `value` after `delayMs` without changes (search boxes). */
export function useDebounced<T>(value: T, delayMs = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

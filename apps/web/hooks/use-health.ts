'use client';

import { useEffect, useState } from 'react';
import { isApiError } from '../lib/api-errors';
import { useApiClient } from '../lib/api-provider';
import type { HealthReport } from '../lib/api-types';

export type HealthState =
  | { phase: 'checking' }
  | { phase: 'online'; report: HealthReport; checkedAt: number }
  /** The API answered, but not with a health report. */
  | { phase: 'error'; message: string; checkedAt: number }
  | { phase: 'unreachable'; message: string; checkedAt: number };

export const HEALTH_POLL_MS = 15_000;

/** Polls GET /health; checks again at once when the tab becomes visible. Never throws. */
export function useHealth(intervalMs: number = HEALTH_POLL_MS): HealthState {
  const api = useApiClient();
  const [state, setState] = useState<HealthState>({ phase: 'checking' });

  useEffect(() => {
    let stopped = false;
    let controller: AbortController | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const check = async () => {
      controller?.abort();
      clearTimeout(timer);
      const current = new AbortController();
      controller = current;
      try {
        const report = await api.getHealth({ signal: current.signal });
        if (stopped || current.signal.aborted) return;
        setState({ phase: 'online', report, checkedAt: Date.now() });
      } catch (error) {
        if (stopped || current.signal.aborted) return;
        const message = isApiError(error) ? error.message : 'The status check failed.';
        const unreachable = !isApiError(error) || error.code === 'unreachable' || error.code === 'timeout';
        setState({ phase: unreachable ? 'unreachable' : 'error', message, checkedAt: Date.now() });
      }
      timer = setTimeout(() => void check(), intervalMs);
    };

    const onVisibilityChange = () => {
      if (document.visibilityState === 'visible') void check();
    };

    void check();
    document.addEventListener('visibilitychange', onVisibilityChange);
    return () => {
      stopped = true;
      controller?.abort();
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibilityChange);
    };
  }, [api, intervalMs]);

  return state;
}

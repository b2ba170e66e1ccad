'use client';

import { createContext, createElement, useContext, useEffect, useState, type ReactNode } from 'react';
import type { HealthReport } from '@lumina/shared';
import { isApiError } from '../lib/api-errors';
import { useApiClient } from './use-api-client';
import { useServerFacts } from '../store/server-facts.store';

export type HealthState =
  | { phase: 'checking' }
  | { phase: 'online'; report: HealthReport; checkedAt: number }
  /** The API answered, but not with a health report. */
  | { phase: 'error'; message: string; checkedAt: number }
  | { phase: 'unreachable'; message: string; checkedAt: number };

export const HEALTH_POLL_MS = 15_000;

/** Polls GET /health; checks again at once when the tab becomes visible. Never throws. */
function usePolledHealth(intervalMs: number): HealthState {
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

const HealthContext = createContext<HealthState>({ phase: 'checking' });

/** One health poller for the whole page (the status badge and the settings drawer read it). */
export function HealthProvider({
  children,
  intervalMs = HEALTH_POLL_MS,
}: {
  children: ReactNode;
  intervalMs?: number;
}) {
  const state = usePolledHealth(intervalMs);
  return createElement(HealthContext.Provider, { value: state }, children);
}

export function useHealth(): HealthState {
  return useContext(HealthContext);
}

export type LlmAvailability = 'configured' | 'not-configured' | 'unknown';

/**
 * Whether the server has a language model: what GET /health says when it reports it, else what the
 * answers so far revealed (an LLM-written answer, or the offline extractive one), else unknown.
 */
export function useLlmAvailability(): {
  state: LlmAvailability;
  reported: boolean;
  /** Who writes the search's variants and HyDE passage, when the server says. */
  search?: HealthReport['llm']['search'];
  local?: NonNullable<HealthReport['llm']['local']>;
} {
  const health = useHealth();
  const observed = useServerFacts((facts) => facts.llm);
  if (health.phase === 'online') {
    const { configured, search, local } = health.report.llm;
    return {
      state: configured ? 'configured' : 'not-configured',
      reported: true,
      search,
      ...(local ? { local } : {}),
    };
  }
  return { state: observed, reported: false };
}

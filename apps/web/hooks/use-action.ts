'use client';

import { useState } from 'react';
import { isApiError } from '../lib/api-errors';

export interface Action {
  /** True while `run` is waiting for its work. */
  busy: boolean;
  /** The last failure as a sentence, or a message the caller set (e.g. a form check). */
  error: string | null;
  setError: (error: string | null) => void;
  /** Clears the error, runs `work`, and on failure keeps the server's sentence (or `fallback`). */
  run: (work: () => Promise<void>, fallback: string) => Promise<void>;
}

/** One button's async work (start a job, save a form) with its busy flag and its error. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (work: () => Promise<void>, fallback: string) => {
    setError(null);
    setBusy(true);
    try {
      await work();
    } catch (problem) {
      setError(isApiError(problem) ? problem.message : fallback);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

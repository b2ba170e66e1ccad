'use client';

import { useEffect, useRef } from 'react';

/**
 * Calls `tick` every `intervalMs` while `active`, waiting for each call to finish before the next;
 * `tick` returns true to stop. Stops on unmount.
 */
export function usePoll(
  active: boolean,
  tick: (signal: AbortSignal) => Promise<boolean>,
  intervalMs = 1_000,
): void {
  const latest = useRef(tick);
  useEffect(() => {
    latest.current = tick;
  });
  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      let stop = false;
      try {
        stop = await latest.current(controller.signal);
      } catch {
        stop = controller.signal.aborted;
      }
      if (!stop && !controller.signal.aborted) timer = setTimeout(() => void run(), intervalMs);
    };
    void run();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [active, intervalMs]);
}

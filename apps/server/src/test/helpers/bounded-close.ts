/** How long one close may take before its connections are dropped: well below jest's hook timeouts. */
export const CLOSE_TIMEOUT_MS = 8_000;

/** What a bounded close does when the clean close runs out of time, and how long that may take. */
export interface CloseFallback {
  /** Drops the connections without waiting for the other side (e.g. a BullMQ `disconnect()`). */
  force?: () => Promise<unknown> | unknown;
  timeoutMs?: number;
}

/**
 * Settles within `timeoutMs`, whatever `promise` does: true when it settled in time (a rejection too),
 * false when the time ran out. The timer never keeps the process alive.
 */
export async function settlesWithin(promise: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      expired,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Closes one thing (a worker, a queue, an app, a database) in a test hook so that the hook always ends:
 * the clean close gets `timeoutMs`; when it runs out (a BullMQ worker or ioredis client retrying against
 * a Redis that is gone, a server waiting on a socket), `force` drops the connections, itself bounded by
 * the same time, and the hook goes on. Errors while closing are reported as a warning, never thrown:
 * a test is about what it asserts, not about how its leftovers go away.
 */
export async function closeWithin(
  what: string,
  close: () => Promise<unknown> | unknown,
  { force, timeoutMs = CLOSE_TIMEOUT_MS }: CloseFallback = {},
): Promise<void> {
  const attempt = (action: () => Promise<unknown> | unknown) =>
    Promise.resolve()
      .then(action)
      .catch((error: unknown) => {
        console.warn(`${what}: close failed: ${error instanceof Error ? error.message : String(error)}`);
      });
  if (await settlesWithin(attempt(close), timeoutMs)) return;
  console.warn(`${what}: not closed after ${timeoutMs} ms; dropping its connections`);
  if (force && !(await settlesWithin(attempt(force), timeoutMs))) {
    console.warn(`${what}: connections not dropped after ${timeoutMs} ms; leaving them to the process exit`);
  }
}

/**
 * Run an abortable task with a deadline. The task's signal aborts on timeout (with the timeout error as
 * its reason) or when `parent` aborts; either way this rejects at once, without waiting for the task.
 */
export async function withDeadline<T>(
  label: string,
  timeoutMs: number,
  task: (signal: AbortSignal) => Promise<T>,
  parent?: AbortSignal,
): Promise<T> {
  if (parent?.aborted) throw abortError(label, parent);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onParentAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`${label} took longer than ${timeoutMs} ms`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
    onParentAbort = () => {
      const error = abortError(label, parent!);
      controller.abort(error);
      reject(error);
    };
    parent?.addEventListener('abort', onParentAbort, { once: true });
  });
  try {
    return await Promise.race([task(controller.signal), stop]);
  } finally {
    clearTimeout(timer);
    if (onParentAbort) parent?.removeEventListener('abort', onParentAbort);
  }
}

function abortError(label: string, signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(`${label} was aborted`);
}

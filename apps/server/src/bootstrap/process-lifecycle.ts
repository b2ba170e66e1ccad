import { EnvValidationError } from '../config/env.schema';

/** How long a graceful stop may take before the process exits anyway (e.g. Redis gone: workers cannot close). */
export const SHUTDOWN_DEADLINE_MS = 15_000;

/** Run `stop` once on SIGINT/SIGTERM, then exit; exit anyway after SHUTDOWN_DEADLINE_MS. */
export function onShutdownSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      console.error(`Still stopping ${SHUTDOWN_DEADLINE_MS} ms after ${signal}; exiting now.`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error(`Error while stopping after ${signal}:`, error);
        process.exit(1);
      });
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

/** Print a boot failure as a sentence (the env error already names each bad variable) and exit non-zero. */
export function exitOnBootFailure(error: unknown): never {
  if (error instanceof EnvValidationError) {
    console.error(error.message);
  } else {
    console.error('Lumina failed to start:', error instanceof Error ? (error.stack ?? error.message) : error);
  }
  process.exit(1);
}

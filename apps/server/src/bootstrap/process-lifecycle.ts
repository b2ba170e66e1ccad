import { EnvValidationError } from '../config/env.schema';

/** Run `stop` once on SIGINT/SIGTERM, then exit. */
export function onShutdownSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
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

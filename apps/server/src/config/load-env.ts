import { validateEnv } from './env.schema';
import type { Env } from './env.schema';

/** The single place that reads process.env: once, at boot of the API, the worker or a CLI. */
export function loadEnv(overrides: Record<string, string | undefined> = {}): Env {
  return validateEnv({ ...process.env, ...overrides });
}

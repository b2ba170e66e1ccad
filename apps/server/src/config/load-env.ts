import { validateEnv } from './env.schema';
import type { Env } from './env.schema';

/** The single place that reads process.env: once, at boot of the API, the worker or a CLI. */
export function loadEnv(overrides: Record<string, string | undefined> = {}): Env {
  return validateEnv({ ...process.env, ...overrides });
}

/**
 * What the MCP stdio command (src/mcp.ts) reads of its environment: the address of the Lumina API it
 * talks to and the key it presents. It runs no server, so it reads nothing of the env schema (no
 * database, no Redis). Empty values count as absent.
 */
export function loadMcpClientEnv(): { url?: string; key?: string } {
  return {
    url: process.env.LUMINA_URL?.trim() || undefined,
    key: process.env.LUMINA_API_KEY?.trim() || undefined,
  };
}

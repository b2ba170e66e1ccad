import type { Env } from './env.schema';

/** The chunking the environment configures (CHUNK_MAX_CHARS / CHUNK_OVERLAP_CHARS). */
export function envChunking(env: Env) {
  return { unit: 'chunk' as const, maxChars: env.CHUNK_MAX_CHARS, overlapChars: env.CHUNK_OVERLAP_CHARS };
}

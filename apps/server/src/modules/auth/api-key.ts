import { createHash, randomBytes } from 'node:crypto';

/** Every generated key starts with this, so a leaked key is recognisable (e.g. by secret scanners). */
export const API_KEY_PREFIX = 'lum_';
/** Random bytes in a generated key (base64url: 43 characters after the prefix). */
export const API_KEY_BYTES = 32;
/** Characters after `lum_` kept in clear to tell keys apart in lists. */
export const KEY_PREFIX_CHARS = 8;
/** Longer presented credentials are refused without hashing or a database lookup. */
export const MAX_PRESENTED_KEY_CHARS = 512;

export interface GeneratedApiKey {
  /** The secret: shown once, never stored. */
  key: string;
  hash: string;
  prefix: string;
}

/** A new key: `lum_` + base64url of 32 random bytes, with the hash and prefix that are stored. */
export function generateApiKey(): GeneratedApiKey {
  const key = `${API_KEY_PREFIX}${randomBytes(API_KEY_BYTES).toString('base64url')}`;
  return { key, hash: hashApiKey(key), prefix: keyPrefix(key) };
}

/**
 * What is stored of a key: its SHA-256, hex. A fast hash is right here: generated keys carry 256 bits
 * of randomness, so there is nothing to brute-force that a slow (password) hash would protect, and each
 * request can be checked with one indexed lookup. ADMIN_API_KEY is chosen by the operator (at least 16
 * characters) and stored the same way.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The displayable start of a key: up to 8 characters after `lum_` (or of a key without the prefix). */
export function keyPrefix(key: string): string {
  const body = key.startsWith(API_KEY_PREFIX) ? key.slice(API_KEY_PREFIX.length) : key;
  return body.slice(0, KEY_PREFIX_CHARS);
}

/** True for a host name or address that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost' || bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice('::ffff:'.length) : bare;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** What an API key may do: `admin` manages documents, question banks, evaluations and keys; `user` chats. */
import { oneOf, z } from './contract/zod';

export const API_KEY_ROLES = ['admin', 'user'] as const;
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];
export const MAX_KEY_NAME_CHARS = 100;

/**
 * How the server authenticates: `keys` (ADMIN_API_KEY is set; every request needs a key) or `local`
 * (no ADMIN_API_KEY; the server listens on loopback only and lets direct loopback clients in as admin).
 */
export type AuthMode = 'keys' | 'local';

/** Body of POST /auth/keys (admin). */
export const createApiKeyRequestSchema = z
  .strictObject({
    name: z
      .string({ error: 'name must be a string' })
      .regex(/\S/, { error: 'name must contain a visible character' })
      .max(MAX_KEY_NAME_CHARS, { error: `name must be at most ${MAX_KEY_NAME_CHARS} characters` }),
    role: oneOf('role', API_KEY_ROLES).meta({
      description: 'admin: everything; user: chat, search, own conversations',
    }),
  })
  .meta({ example: { name: 'Alice laptop', role: 'user' } });
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequestSchema>;

/** An API key as listed: never the key itself, only its first characters. */
export interface ApiKeySummary {
  id: string;
  name: string;
  role: ApiKeyRole;
  /** The key's first characters (after `lum_`), to tell keys apart. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The answer to creating a key: the only time the key is shown. */
export interface CreatedApiKey {
  id: string;
  name: string;
  role: ApiKeyRole;
  prefix: string;
  createdAt: string;
  key: string;
}

/** GET /auth/me: who the request was authenticated as. */
export interface AuthIdentity {
  id: string;
  name: string;
  role: ApiKeyRole;
  mode: AuthMode;
}

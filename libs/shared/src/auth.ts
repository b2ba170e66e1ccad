/** What an API key may do: `admin` manages documents, question banks, evaluations and keys; `user` chats. */
import { oneOf, z } from './contract/zod';

export const API_KEY_ROLES = ['admin', 'user'] as const;
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];
export const MAX_KEY_NAME_CHARS = 100;

/**
 * How the server authenticates: `keys` (ADMIN_API_KEY is set; every request needs a key) or `local`
 * (no ADMIN_API_KEY; the server listens on loopback only and lets direct loopback clients in as admin).
 */
export const AUTH_MODES = ['keys', 'local'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

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
export const apiKeySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(API_KEY_ROLES),
  /** The key's first characters (after `lum_`), to tell keys apart. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKeySummary = z.infer<typeof apiKeySummarySchema>;

/** The answer to creating a key: the only time the key is shown. */
export const createdApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(API_KEY_ROLES),
  prefix: z.string(),
  createdAt: z.string(),
  key: z.string(),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

/** GET /auth/me: who the request was authenticated as. */
export const authIdentitySchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(API_KEY_ROLES),
  mode: z.enum(AUTH_MODES),
});
export type AuthIdentity = z.infer<typeof authIdentitySchema>;

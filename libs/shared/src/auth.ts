/** What an API key may do: `admin` manages documents, question banks, evaluations and keys; `user` chats. */
export type ApiKeyRole = 'admin' | 'user';

/**
 * How the server authenticates: `keys` (ADMIN_API_KEY is set; every request needs a key) or `local`
 * (no ADMIN_API_KEY; the server listens on loopback only and lets direct loopback clients in as admin).
 */
export type AuthMode = 'keys' | 'local';

/** Body of POST /auth/keys (admin). */
export interface CreateApiKeyRequest {
  name: string;
  role: ApiKeyRole;
}

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

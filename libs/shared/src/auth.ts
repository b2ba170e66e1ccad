/** What an API key may do: `admin` manages documents, question banks, evaluations and keys; `user` chats. */
import { objectError, oneOf, uuid, z } from './contract/zod';

export const API_KEY_ROLES = ['admin', 'user'] as const;
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];
export const MAX_KEY_NAME_CHARS = 100;

/**
 * How the server authenticates: `keys` (ADMIN_API_KEY is set; every request needs a key) or `local`
 * (no ADMIN_API_KEY; the server listens on loopback only and lets direct loopback clients in as admin).
 */
export const AUTH_MODES = ['keys', 'local'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** What a grant lets a user key do in a collection. */
export const COLLECTION_ACCESS = ['read', 'write'] as const;
export type CollectionAccessLevel = (typeof COLLECTION_ACCESS)[number];
/** At most this many grants on one key. */
export const MAX_KEY_GRANTS = 200;

/**
 * A user key's grant on a collection: `read` searches, chats and reads its documents and passages;
 * `write` also uploads, moves and deletes its documents.
 */
export const collectionGrantSchema = z.strictObject(
  {
    collectionId: uuid('collectionId', 'a collection id'),
    access: oneOf('access', COLLECTION_ACCESS),
  },
  { error: objectError('each grant must be an object: { collectionId, access }') },
);
export type CollectionGrant = z.infer<typeof collectionGrantSchema>;

/** The grants of a user key (each collection at most once). */
export const collectionGrantsSchema = z
  .array(collectionGrantSchema, { error: 'grants must be an array of { collectionId, access }' })
  .max(MAX_KEY_GRANTS, { error: `grants must hold at most ${MAX_KEY_GRANTS} collections` })
  .check(
    z.refine((grants) => new Set(grants.map((grant) => grant.collectionId)).size === grants.length, {
      error: 'grants must name each collection once',
    }),
  );

/** Body of PUT /auth/keys/:id/grants (admin): the user key's grants, replacing the ones it had. */
export const keyGrantsRequestSchema = z
  .strictObject(
    { grants: collectionGrantsSchema },
    { error: objectError('the body must be an object: { grants }') },
  )
  .meta({
    example: { grants: [{ collectionId: '2f1c6f1e-8d2b-4c53-9a55-0a7c7c1f2b11', access: 'read' }] },
  });
export type KeyGrantsRequest = z.infer<typeof keyGrantsRequestSchema>;

/** Body of POST /auth/keys (admin). */
export const createApiKeyRequestSchema = z
  .strictObject({
    name: z
      .string({ error: 'name must be a string' })
      .regex(/\S/, { error: 'name must contain a visible character' })
      .max(MAX_KEY_NAME_CHARS, { error: `name must be at most ${MAX_KEY_NAME_CHARS} characters` }),
    role: oneOf('role', API_KEY_ROLES).meta({
      description: 'admin: everything; user: chat, search, own conversations, in the collections granted',
    }),
    grants: collectionGrantsSchema.optional().meta({
      description: 'A user key’s collections (none: it reads nothing); an admin key reaches every collection',
    }),
  })
  .meta({ example: { name: 'Alice laptop', role: 'user' } });
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequestSchema>;

/** An API key as listed: never the key itself, only its first characters. */
export const apiKeySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(API_KEY_ROLES),
  /** A user key's collections; empty for an admin key, which reaches every collection. */
  grants: z.array(z.object({ collectionId: z.string(), access: z.enum(COLLECTION_ACCESS) })),
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
  grants: z.array(z.object({ collectionId: z.string(), access: z.enum(COLLECTION_ACCESS) })),
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
  /** A user key's collections; empty for an admin key, which reaches every collection. */
  grants: z.array(z.object({ collectionId: z.string(), access: z.enum(COLLECTION_ACCESS) })),
  mode: z.enum(AUTH_MODES),
});
export type AuthIdentity = z.infer<typeof authIdentitySchema>;

/** GET /auth/me: who the key (or, on a local server, this machine) is; and the API keys (admin). */
import { apiKeySummarySchema, authIdentitySchema, createdApiKeySchema, pageOf } from '@lumina/shared';
import type {
  ApiKeySummary,
  AuthIdentity,
  CreateApiKeyRequest,
  CreatedApiKey,
  KeyGrantsRequest,
  Page,
  PageQuery,
} from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import { parsedBy } from './read';
import { queryOf, type RequestOptions, type Transport } from './transport';

const identity = parsedBy(authIdentitySchema);
const keySummary = parsedBy(apiKeySummarySchema);
const keyPage = parsedBy(pageOf(apiKeySummarySchema));
const createdKey = parsedBy(createdApiKeySchema);

export function authApi(http: Transport) {
  const ops = API_OPERATIONS;
  return {
    /** GET /auth/me: the key's name and role (on a local server without a key: the local admin). */
    getIdentity({ signal }: RequestOptions = {}): Promise<AuthIdentity> {
      return http.json(ops.me, { signal }, identity, 'expected { id, name, role, mode }');
    },

    /** GET /auth/keys (admin): a page of keys, newest first, never the keys themselves. */
    listKeys(query: PageQuery = {}, { signal }: RequestOptions = {}): Promise<Page<ApiKeySummary>> {
      return http.json(
        ops.listKeys,
        { query: queryOf(query), signal },
        keyPage,
        'expected a page of API keys',
      );
    },

    /** POST /auth/keys (admin): the answer carries the key itself, the only time it is shown. */
    createKey(request: CreateApiKeyRequest, { signal }: RequestOptions = {}): Promise<CreatedApiKey> {
      return http.json(ops.createKey, { body: request, signal }, createdKey, 'expected the new API key');
    },

    /** DELETE /auth/keys/:id (admin): the key is refused from now on; 409 for the last admin key. */
    revokeKey(id: string, { signal }: RequestOptions = {}): Promise<ApiKeySummary> {
      return http.json(ops.revokeKey, { params: { id }, signal }, keySummary, 'expected the revoked key');
    },

    /** PUT /auth/keys/:id/grants (admin): a user key's collections, replacing the ones it had. */
    setKeyGrants(
      id: string,
      request: KeyGrantsRequest,
      { signal }: RequestOptions = {},
    ): Promise<ApiKeySummary> {
      return http.json(
        ops.setKeyGrants,
        { params: { id }, body: request, signal },
        keySummary,
        'expected the key with its collections',
      );
    },
  };
}

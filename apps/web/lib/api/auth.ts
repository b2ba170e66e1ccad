/** GET /auth/me: who the key (or, on a local server, this machine) is. */
import { authIdentitySchema } from '@lumina/shared';
import type { AuthIdentity } from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import { parsedBy } from './read';
import type { RequestOptions, Transport } from './transport';

const identity = parsedBy(authIdentitySchema);

export function authApi(http: Transport) {
  return {
    /** GET /auth/me: the key's name and role (on a local server without a key: the local admin). */
    getIdentity({ signal }: RequestOptions = {}): Promise<AuthIdentity> {
      return http.json(API_OPERATIONS.me, { signal }, identity, 'expected { id, name, role, mode }');
    },
  };
}

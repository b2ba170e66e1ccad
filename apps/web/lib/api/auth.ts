/** GET /auth/me: who the key (or, on a local server, this machine) is. */
import type { AuthIdentity } from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import { isRecord } from './read';
import type { RequestOptions, Transport } from './transport';

export function parseIdentity(json: unknown): AuthIdentity | null {
  if (!isRecord(json) || typeof json.id !== 'string' || typeof json.name !== 'string') return null;
  if (json.role !== 'admin' && json.role !== 'user') return null;
  return { id: json.id, name: json.name, role: json.role, mode: json.mode === 'local' ? 'local' : 'keys' };
}

export function authApi(http: Transport) {
  return {
    /** GET /auth/me: the key's name and role (on a local server without a key: the local admin). */
    getIdentity({ signal }: RequestOptions = {}): Promise<AuthIdentity> {
      return http.json(API_OPERATIONS.me, { signal }, parseIdentity, 'expected { id, name, role, mode }');
    },
  };
}

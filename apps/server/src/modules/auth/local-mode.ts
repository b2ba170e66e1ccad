import { EnvValidationError } from '../../config/env.schema';
import type { Env } from '../../config/env.schema';
import { isLoopbackHost } from './api-key';

/**
 * Without ADMIN_API_KEY the API lets direct loopback clients in as admin, which is only safe when nothing
 * else can reach it: refuse to serve on any other address.
 */
export function assertSafeListenAddress(env: Pick<Env, 'HOST' | 'ADMIN_API_KEY'>): void {
  if (env.ADMIN_API_KEY || isLoopbackHost(env.HOST)) return;
  throw new EnvValidationError([
    {
      variable: 'HOST',
      message:
        `is "${env.HOST}", which other machines can reach, and ADMIN_API_KEY is not set. Set ADMIN_API_KEY ` +
        '(at least 16 characters) so every request needs an API key, or listen on a loopback address ' +
        '(HOST=127.0.0.1).',
    },
  ]);
}

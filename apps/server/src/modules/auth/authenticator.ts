import { Injectable } from '@nestjs/common';
import type { ApiKeyRole } from '@lumina/shared';
import type { Request } from 'express';
import { ApiKeyService } from './api-key.service';
import type { Principal } from './principal';
import { isDirectLoopback, presentedKey } from './request-credentials';

export type AuthVerdict = { ok: true; principal: Principal } | { ok: false; status: 401; message: string };

export const KEY_REQUIRED_MESSAGE =
  'An API key is required: send it in the x-api-key header (or as a Bearer token, or as the basic-auth password).';
export const KEY_INVALID_MESSAGE = 'The API key is not valid: it is unknown or has been revoked.';
const PROXIED_LOCAL_MESSAGE =
  'An API key is required: without ADMIN_API_KEY the server lets in only clients on this machine that do ' +
  'not come through a proxy. Send a key in the x-api-key header.';

const VERDICT = Symbol('lumina:auth-verdict');

/**
 * Who a request is. A presented key always decides, in both modes (unknown or revoked: 401). Without a
 * key: in local mode (no ADMIN_API_KEY) a direct loopback client is the local admin; otherwise 401.
 * The verdict is computed once per request (the auth guard, the rate limit and the dashboard middleware
 * all ask).
 */
@Injectable()
export class Authenticator {
  constructor(private readonly keys: ApiKeyService) {}

  resolve(request: Request): Promise<AuthVerdict> {
    const cache = request as unknown as { [VERDICT]?: Promise<AuthVerdict> };
    cache[VERDICT] ??= this.decide(request);
    return cache[VERDICT];
  }

  private async decide(request: Request): Promise<AuthVerdict> {
    const key = presentedKey(request);
    if (key !== undefined) {
      const principal = await this.keys.authenticate(key);
      return principal ? { ok: true, principal } : { ok: false, status: 401, message: KEY_INVALID_MESSAGE };
    }
    const local = this.keys.localPrincipal;
    if (local) {
      if (isDirectLoopback(request)) return { ok: true, principal: local };
      return { ok: false, status: 401, message: PROXIED_LOCAL_MESSAGE };
    }
    return { ok: false, status: 401, message: KEY_REQUIRED_MESSAGE };
  }
}

/** The sentence of a 403 for a principal without one of `roles`. */
export function forbiddenMessage(principal: Principal, roles: readonly ApiKeyRole[]): string {
  return `This needs ${roles.map((role) => `an ${role}`).join(' or ')} API key; "${principal.name}" is a ${principal.role} key.`;
}

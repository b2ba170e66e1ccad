import type { Request } from 'express';
import { isLoopbackHost, MAX_PRESENTED_KEY_CHARS } from './api-key';

/**
 * The key a request presents, if any: the `x-api-key` header, an `Authorization: Bearer` token, or the
 * password of HTTP basic auth (any user name; what browsers and Prometheus send). An empty value counts
 * as none; an absurdly long one is cut to a length that can never match.
 */
export function presentedKey(request: Pick<Request, 'headers'>): string | undefined {
  const header = request.headers['x-api-key'];
  const apiKey = (Array.isArray(header) ? header[0] : header)?.trim();
  if (apiKey) return clip(apiKey);
  const authorization = request.headers.authorization?.trim() ?? '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization);
  if (bearer) return clip(bearer[1]);
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization);
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const password = colon === -1 ? '' : decoded.slice(colon + 1);
  return password ? clip(password) : undefined;
}

/**
 * A loopback peer that did not come through a proxy: a local reverse proxy would otherwise make every
 * visitor "local".
 */
export function isDirectLoopback(request: Pick<Request, 'headers' | 'socket'>): boolean {
  const { headers } = request;
  const proxied =
    headers['x-forwarded-for'] !== undefined ||
    headers.forwarded !== undefined ||
    headers['x-real-ip'] !== undefined;
  const address = request.socket?.remoteAddress;
  return !proxied && address !== undefined && isLoopbackHost(address);
}

function clip(key: string): string {
  return key.length > MAX_PRESENTED_KEY_CHARS ? key.slice(0, MAX_PRESENTED_KEY_CHARS + 1) : key;
}

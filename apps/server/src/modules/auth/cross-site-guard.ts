import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { sendError } from '../../common/errors/error-body';
import { isLoopbackHost } from './api-key';
import { presentedKey } from './request-credentials';

/** The header the web app (and scripts) send so a keyless form upload is known not to come from another site. */
export const CLIENT_HEADER = 'x-lumina-client';

/** Body types a browser sends cross-site without asking first (no CORS preflight). */
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

export interface CrossSitePolicy {
  /** Local mode (no ADMIN_API_KEY): a keyless loopback request is the admin. */
  localMode: boolean;
  /** WEB_ORIGIN: the browser origins allowed to call the API. */
  webOrigins: readonly string[];
}

export type CrossSiteVerdict = { ok: true } | { ok: false; message: string };

type RequestFacts = Pick<Request, 'headers' | 'method'>;

/**
 * Whether a request may come in, before its body is read. In local mode any web page the user opens
 * could otherwise drive the API as admin: a form posted from another site, or a page whose name was
 * rebound to 127.0.0.1 (DNS rebinding). So, in local mode:
 *  - the Host must be a loopback name (localhost, 127.0.0.0/8, [::1], any port);
 *  - an Origin, when sent, must be one of WEB_ORIGIN or the API's own origin;
 *  - a keyless form body (urlencoded, multipart, text/plain: what a cross-site form can send) needs the
 *    x-lumina-client header, which no cross-site form can set.
 * With keys the only credential a browser replays on its own is basic auth (cached for the dashboard),
 * so a basic-auth request from a foreign Origin is refused too; every other keys-mode request is as before.
 */
export function judgeCrossSite(request: RequestFacts, policy: CrossSitePolicy): CrossSiteVerdict {
  const key = presentedKey(request);
  const ambient = key === undefined || /^Basic\s/i.test(request.headers.authorization?.trim() ?? '');
  if (!policy.localMode && !(ambient && key !== undefined)) return { ok: true };
  const host = request.headers.host;
  if (policy.localMode && !isLoopbackHostHeader(host)) {
    return {
      ok: false,
      message:
        `The Host "${clip(host ?? '')}" is not this machine: without ADMIN_API_KEY the API answers only to ` +
        'localhost, 127.0.0.1 or [::1] (a page on another site could otherwise reach it through DNS rebinding).',
    };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !isAllowedOrigin(origin, host, policy.webOrigins)) {
    return {
      ok: false,
      message:
        `Requests from the web page at "${clip(origin)}" are refused: only ${policy.webOrigins.join(', ')} ` +
        '(WEB_ORIGIN) and the API itself may call it from a browser.',
    };
  }
  if (policy.localMode && key === undefined && isFormBody(request) && !request.headers[CLIENT_HEADER]) {
    return {
      ok: false,
      message:
        'A form body (urlencoded, multipart or text/plain) without an API key needs the header ' +
        `"${CLIENT_HEADER}: <name>" (e.g. curl -H '${CLIENT_HEADER}: cli'), so another website cannot post ` +
        'forms to this API. The web app sends it.',
    };
  }
  return { ok: true };
}

/** The policy as Express middleware: a refused request is answered 403 before its body is read. */
export function crossSiteGuard(policy: CrossSitePolicy): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    const verdict = judgeCrossSite(request, policy);
    if (verdict.ok) return next();
    sendError(response, 403, 'Forbidden', verdict.message);
  };
}

/** `localhost:3000`, `127.0.0.1`, `[::1]:3000` — a loopback name with an optional port, nothing else. */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  if (!host) return false;
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host.trim());
  if (!match) return false;
  if (match[2] !== undefined && Number(match[2]) > 65535) return false;
  return isLoopbackHost(match[1]);
}

function isAllowedOrigin(origin: string, host: string | undefined, webOrigins: readonly string[]): boolean {
  let normalized: string;
  try {
    const url = new URL(origin);
    if (url.origin === 'null') return false; // sandboxed frames, file: pages
    normalized = url.origin;
  } catch {
    return false;
  }
  if (webOrigins.some((allowed) => safeOrigin(allowed) === normalized)) return true;
  // The API's own pages (/api/docs, /admin/queues) call it from its own origin.
  const own = host?.trim().toLowerCase();
  return own !== undefined && (normalized === `http://${own}` || normalized === `https://${own}`);
}

function safeOrigin(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

function isFormBody(request: RequestFacts): boolean {
  const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  return FORM_TYPES.includes(type);
}

function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

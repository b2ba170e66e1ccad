import type { Request } from 'express';

/**
 * The route a request matched, as its template (`/conversations/:id`), or null before routing or when no
 * route matched. Express matches paths case-insensitively and with or without a trailing slash, so
 * `/Rag/Search/` runs the `/rag/search` handler: whatever keys on a route (rate limits, logs) keys on
 * this, never on the raw path.
 */
export function matchedRoute(request: Request): string | null {
  const route = (request as { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? `${request.baseUrl}${route.path}` : null;
}

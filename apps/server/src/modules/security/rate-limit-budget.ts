/**
 * The routes that cost real work (retrieval, LLM calls), on RATE_LIMIT_PER_MINUTE: `METHOD template`.
 * POST /mcp and POST /v1/chat/completions too: they search and answer, and a client must not get more
 * of either through MCP or the OpenAI-compatible endpoint.
 */
export const EXPENSIVE_ROUTES: ReadonlySet<string> = new Set([
  'POST /chat',
  'POST /rag/search',
  'POST /mcp',
  'POST /v1/chat/completions',
]);

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Which per-client budget a request counts against: `expensive` (search and chat,
 * RATE_LIMIT_PER_MINUTE), `writes` (every other POST, PUT, PATCH and DELETE,
 * RATE_LIMIT_WRITES_PER_MINUTE), or none (reads). `route` is the matched route's template, so every
 * spelling of a path that reaches a handler counts the same.
 */
export type RateLimitBudget = 'expensive' | 'writes';

export function rateLimitBudget(method: string, route: string | null): RateLimitBudget | null {
  const verb = method.toUpperCase();
  if (!WRITE_METHODS.has(verb)) return null;
  return route !== null && EXPENSIVE_ROUTES.has(`${verb} ${route}`) ? 'expensive' : 'writes';
}

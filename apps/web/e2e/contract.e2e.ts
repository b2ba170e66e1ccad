/**
 * The committed OpenAPI snapshot (openapi/lumina-api.json, which the client's unit test checks
 * against) must describe the server the browser tests run: same operations for every endpoint the
 * web app calls, same query parameters and request-body properties.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { API_OPERATIONS } from '../lib/api-operations';
import { matchOperations, operationKey } from '../lib/openapi-paths';
import { API_URL } from './support/browser';

interface Document {
  paths: Record<
    string,
    Record<string, { parameters?: { name: string; in: string }[]; requestBody?: unknown }>
  >;
  components?: { schemas?: Record<string, unknown> };
}

const snapshot = JSON.parse(
  readFileSync(path.join(__dirname, '..', 'openapi', 'lumina-api.json'), 'utf8'),
) as Document;

/** For each operation the client calls: its query parameter names and its request body schema. */
function shape(document: Document): Record<string, unknown> {
  const wanted = new Set(
    Object.values(API_OPERATIONS).map((operation) => operationKey(operation.method, operation.path)),
  );
  const out: Record<string, unknown> = {};
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const key = operationKey(method, template);
      if (!wanted.has(key)) continue;
      const body = JSON.stringify(operation.requestBody ?? null);
      const refs = [...body.matchAll(/#\/components\/schemas\/(\w+)/g)].map((match) => match[1]);
      out[key] = {
        query: (operation.parameters ?? [])
          .filter((p) => p.in === 'query')
          .map((p) => p.name)
          .sort(),
        body: operation.requestBody ?? null,
        schemas: Object.fromEntries(refs.map((ref) => [ref, document.components?.schemas?.[ref] ?? null])),
      };
    }
  }
  return out;
}

describe('API contract', () => {
  it('the committed OpenAPI snapshot matches the running server for every endpoint the web app calls', async () => {
    const live = (await (await fetch(`${API_URL}/api/docs-json`)).json()) as Document;
    expect(matchOperations(live).missing).toEqual(matchOperations(snapshot).missing);
    expect(shape(live)).toEqual(shape(snapshot));
  });
});

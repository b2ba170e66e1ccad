import type { Json } from './http';
import { recordShape } from './contract-shape';
import type { ShapeLedger } from './contract-shape';

/** The response schema's component name of an operation, from the served OpenAPI document. */
export function responseSchemaName(document: Json, method: string, url: string): string {
  const path = url.split('?')[0];
  const template = Object.keys(document.paths).find(
    (candidate) =>
      new RegExp(`^${candidate.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path) &&
      document.paths[candidate][method.toLowerCase()],
  );
  if (!template) throw new Error(`no operation ${method} ${path} in the OpenAPI document`);
  const responses = document.paths[template][method.toLowerCase()].responses ?? {};
  const ref = ['200', '201', '202']
    .map((status) => responses[status]?.content?.['application/json']?.schema?.$ref)
    .find(Boolean);
  if (!ref) throw new Error(`${method} ${template} declares no response schema`);
  return String(ref).split('/').pop()!;
}

/** The component each event of an operation's `text/event-stream` answer is, by event name (`x-events`). */
export function eventSchemaNames(document: Json, method: string, template: string): Record<string, string> {
  const stream =
    document.paths[template]?.[method.toLowerCase()]?.responses?.['200']?.content?.['text/event-stream'];
  if (!stream) throw new Error(`${method} ${template} declares no event stream`);
  return Object.fromEntries(
    Object.entries(stream.schema['x-events'] as Record<string, { $ref: string }>).map(([event, { $ref }]) => [
      event,
      $ref.split('/').pop()!,
    ]),
  );
}

/**
 * A caller that sends one request and records its answer in the ledger against the response schema its
 * OpenAPI operation names (an answer of 300 or more throws, saying what it was).
 */
export function contractCaller(
  baseUrl: string,
  document: Json,
  ledger: ShapeLedger,
): (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Json> {
  return async (method, path, body, headers = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    recordShape(ledger, document.components.schemas, responseSchemaName(document, method, path), json);
    return json;
  };
}

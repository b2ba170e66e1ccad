import { API_OPERATIONS, type ApiOperation, type ApiOperationName } from './api-operations';

/** 'GET /documents/{}' for both '/documents/:id' and '/documents/{id}': parameter names may differ. */
export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/:[A-Za-z]+|\{[^}]+\}/g, '{}')}`;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every 'METHOD path' an OpenAPI document declares. */
export function openApiOperationKeys(document: unknown): Set<string> {
  const keys = new Set<string>();
  if (typeof document !== 'object' || document === null) return keys;
  const paths = (document as { paths?: unknown }).paths;
  if (typeof paths !== 'object' || paths === null) return keys;
  for (const [path, item] of Object.entries(paths as Record<string, unknown>)) {
    if (typeof item !== 'object' || item === null) continue;
    for (const method of Object.keys(item)) {
      if (METHODS.includes(method)) keys.add(operationKey(method, path));
    }
  }
  return keys;
}

/** The client's operations the document declares, and those it does not. */
export function matchOperations(
  document: unknown,
  operations: Record<string, ApiOperation> = API_OPERATIONS,
): { present: ApiOperationName[]; missing: ApiOperationName[] } {
  const keys = openApiOperationKeys(document);
  const present: ApiOperationName[] = [];
  const missing: ApiOperationName[] = [];
  for (const [name, operation] of Object.entries(operations)) {
    (keys.has(operationKey(operation.method, operation.path)) ? present : missing).push(
      name as ApiOperationName,
    );
  }
  return { present, missing };
}

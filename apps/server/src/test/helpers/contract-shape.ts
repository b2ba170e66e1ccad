/**
 * Checks answers against the OpenAPI document's response schemas, both ways: a field an answer holds
 * that its schema does not declare, and (over many answers) a declared field no answer ever held.
 */
type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
};

export interface ShapeLedger {
  /** Declared field paths (`QuestionBank.items[].name`) by schema name. */
  declared: Set<string>;
  /** Field paths some answer held. */
  seen: Set<string>;
  /** Fields an answer held that its schema does not declare. */
  undeclared: string[];
}

export function newLedger(): ShapeLedger {
  return { declared: new Set(), seen: new Set(), undeclared: [] };
}

function resolve(components: Record<string, Schema>, schema: Schema): Schema {
  let current = schema;
  for (let depth = 0; current.$ref && depth < 20; depth++) {
    current = components[current.$ref.split('/').pop()!] ?? {};
  }
  return current;
}

/** Every field path a schema declares (union options and all). */
function declare(components: Record<string, Schema>, schema: Schema, path: string, out: Set<string>): void {
  const resolved = resolve(components, schema);
  for (const option of [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.allOf ?? [])]) {
    declare(components, option, path, out);
  }
  if (resolved.items) declare(components, resolved.items, `${path}[]`, out);
  for (const [key, property] of Object.entries(resolved.properties ?? {})) {
    out.add(`${path}.${key}`);
    declare(components, property, `${path}.${key}`, out);
  }
}

/** The paths a value holds that the schema does not declare, and those it holds that it does. */
function walk(
  components: Record<string, Schema>,
  schema: Schema,
  value: unknown,
  path: string,
): { undeclared: string[]; seen: string[] } {
  const resolved = resolve(components, schema);
  const options = resolved.anyOf ?? resolved.oneOf;
  if (options) {
    // The option that fits best: the fewest undeclared fields.
    return options
      .map((option) => walk(components, option, value, path))
      .sort((a, b) => a.undeclared.length - b.undeclared.length)[0];
  }
  const found = { undeclared: [] as string[], seen: [] as string[] };
  if (value === null || typeof value !== 'object') return found;
  if (Array.isArray(value)) {
    for (const item of value) {
      const inner = walk(components, resolved.items ?? {}, item, `${path}[]`);
      found.undeclared.push(...inner.undeclared);
      found.seen.push(...inner.seen);
    }
    return found;
  }
  const properties = resolved.properties ?? {};
  if (!resolved.properties && resolved.additionalProperties !== false) return found; // a free-form record
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const property = properties[key];
    if (!property) {
      found.undeclared.push(`${path}.${key}`);
      continue;
    }
    found.seen.push(`${path}.${key}`);
    const deeper = walk(components, property, inner, `${path}.${key}`);
    found.undeclared.push(...deeper.undeclared);
    found.seen.push(...deeper.seen);
  }
  return found;
}

/** Records one answer against the schema named `name` in the document's components. */
export function recordShape(
  ledger: ShapeLedger,
  components: Record<string, Schema>,
  name: string,
  value: unknown,
): void {
  const schema = { $ref: `#/components/schemas/${name}` };
  declare(components, schema, name, ledger.declared);
  const { undeclared, seen } = walk(components, schema, value, name);
  ledger.undeclared.push(...undeclared);
  for (const path of seen) ledger.seen.add(path);
}

/** Declared fields no recorded answer held. */
export function neverSent(ledger: ShapeLedger): string[] {
  return [...ledger.declared].filter((path) => !ledger.seen.has(path)).sort();
}

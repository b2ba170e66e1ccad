/**
 * Limits on the shape of a parsed JSON request body, checked before any validation runs, so that the
 * cost of validating a body is bounded by its shape and never by an attacker's choice of key count.
 * No API shape comes near them: the widest object a route takes (search settings, an item's metadata)
 * has a few dozen keys, and the deepest nests a handful of levels.
 */
export const MAX_JSON_DEPTH = 32;
export const MAX_JSON_OBJECT_KEYS = 100;

/** Keys that reach an object's prototype (`constructor.prototype`, `__proto__`): refused, never dropped. */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor']);

export interface JsonBodyLimits {
  maxDepth: number;
  maxObjectKeys: number;
}

const DEFAULT_LIMITS: JsonBodyLimits = { maxDepth: MAX_JSON_DEPTH, maxObjectKeys: MAX_JSON_OBJECT_KEYS };

const tooManyKeys = (keys: number, limit: number): string =>
  `An object in the request body has ${keys} keys; the limit is ${limit} keys per object.`;
const tooDeep = (limit: number): string => `The request body is nested more than ${limit} levels deep.`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/**
 * The shape limits checked on the raw JSON text (UTF-8 bytes), BEFORE it is parsed: JSON.parse itself
 * takes a few hundred milliseconds on an object of 100,000 distinct keys, so a count after parsing comes
 * too late. One pass over the bytes: strings are skipped (a multi-byte UTF-8 sequence never contains a
 * quote or a backslash byte), each `{`/`[` opens a level, and an object's keys are its top-level commas
 * plus one. Stops at the first object past `maxObjectKeys` keys or the first level past `maxDepth`.
 * Malformed JSON is left to the parser: this only answers for what it could count.
 */
export function findJsonTextProblem(
  bytes: Uint8Array,
  limits: JsonBodyLimits = DEFAULT_LIMITS,
): string | null {
  // Per open level: -1 for an array, else the keys seen so far in that object.
  const keys: number[] = [];
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    switch (byte) {
      case QUOTE:
        inString = true;
        if (keys.length > 0 && keys[keys.length - 1] === 0) keys[keys.length - 1] = 1; // the first key
        break;
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        keys.push(byte === OPEN_OBJECT ? 0 : -1);
        if (keys.length > limits.maxDepth) return tooDeep(limits.maxDepth);
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        keys.pop();
        break;
      case COMMA: {
        const top = keys.length - 1;
        if (top >= 0 && keys[top] >= 0) {
          keys[top] += 1;
          if (keys[top] > limits.maxObjectKeys)
            return tooManyKeys(countKeys(bytes, i, keys[top]), limits.maxObjectKeys);
        }
        break;
      }
      default:
        break;
    }
  }
  return null;
}

/** How many keys the object holds at least (counted on to its end, for the message; still one pass). */
function countKeys(bytes: Uint8Array, from: number, seen: number): number {
  let depth = 0;
  let count = seen;
  let inString = false;
  for (let i = from + 1; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth += 1;
    else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (depth === 0) return count;
      depth -= 1;
    } else if (byte === COMMA && depth === 0) count += 1;
  }
  return count;
}

/**
 * What makes a parsed body unacceptable whatever the route, or null: an object with more than
 * `maxObjectKeys` keys (at any level), nesting deeper than `maxDepth`, a `__proto__`/`constructor` key,
 * or a NUL character in a key or a string (PostgreSQL text cannot hold one). Iterative, so deep input
 * cannot overflow it. Run it after findJsonTextProblem, which bounds the key count before parsing.
 */
export function findJsonBodyProblem(body: unknown, limits: JsonBodyLimits = DEFAULT_LIMITS): string | null {
  const stack: { value: unknown; depth: number }[] = [{ value: body, depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, depth } = item;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return 'Text in the request must not contain NUL characters (\\u0000).';
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= limits.maxDepth)
      return `The request body is nested more than ${limits.maxDepth} levels deep.`;
    if (Array.isArray(value)) {
      for (const element of value) stack.push({ value: element, depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > limits.maxObjectKeys) return tooManyKeys(keys.length, limits.maxObjectKeys);
    for (const key of keys) {
      if (PROTOTYPE_KEYS.has(key)) return `The request body must not contain a "${key}" key.`;
      if (key.includes('\u0000')) return 'Text in the request must not contain NUL characters (\\u0000).';
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1 });
    }
  }
  return null;
}

/**
 * The building blocks of the wire contract: every HTTP body is a zod schema built from these, its
 * TypeScript type is `z.infer` of it, the server validates with it, the OpenAPI document is generated
 * from it, and the web parses answers with it. The messages are the API's 400 messages, so each names
 * its field and says what is wrong.
 */
import { z } from 'zod/v4';

export { z };

/** The last page anyone may ask for: past it the row offset would leave the database's integer range. */
export const MAX_PAGE = 1_000_000;

/** The type error of a field: "is required" when it is missing, else `otherwise`. */
export function typeError(field: string, otherwise: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? `${field} is required` : otherwise);
}

/** The error of an object that is not one (unknown keys keep their own sentence). */
export function objectError(message: string) {
  return (issue: { code?: string }) => (issue.code === 'invalid_type' ? message : undefined);
}

/** A string of at most `max` characters (`field` names it in the messages). */
export function text(field: string, max: number) {
  return z
    .string({ error: typeError(field, `${field} must be a string`) })
    .max(max, { error: `${field} must be shorter than or equal to ${max} characters` });
}

/** A string that holds something besides spaces. */
export function filled(field: string, max: number) {
  return text(field, max).check(
    z.refine((value) => /\S/.test(value), {
      error: (issue) => `${field} must not be ${issue.input === '' ? 'empty' : 'only spaces'}`,
    }),
  );
}

/** A string that holds something besides spaces; blank or empty, it "must not be empty". */
export function notBlank(field: string, max: number) {
  return text(field, max).check(
    z.refine((value) => /\S/.test(value), { error: `${field} must not be empty` }),
  );
}

/** A UUID (any version), e.g. a row id. */
export function uuid(field: string, what = 'an id') {
  return z
    .string({ error: typeError(field, `${field} must be ${what} (a UUID)`) })
    .check(z.refine((value) => UUID.test(value), { error: `${field} must be ${what} (a UUID)` }))
    .meta({ format: 'uuid' });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Short labels: up to 50 non-empty strings of at most 100 characters. */
export function tagList(field = 'tags') {
  return z
    .array(filled(field.replace(/s$/, ''), 100), {
      error: typeError(field, `${field} must be an array of strings`),
    })
    .max(50, { error: `${field} must hold at most 50 entries` });
}

/** One of a fixed list of strings. */
export function oneOf<const T extends readonly [string, ...string[]]>(field: string, values: T) {
  return z.enum(values, { error: typeError(field, `${field} must be one of ${values.join(', ')}`) });
}

/** An integer in [min, max] (a body field: a JSON number). */
export function int(field: string, min: number, max: number) {
  return z

    .number({ error: typeError(field, `${field} must be an integer`) })
    .check(z.refine(Number.isInteger, { error: `${field} must be an integer` }))
    .min(min, { error: `${field} must be ${min} or more` })
    .max(max, { error: `${field} must be at most ${max}` });
}

/** An integer from a query string (`?page=2`), at least `min`; `max` when there is one. */
export function queryInt(field: string, min: number, max?: number) {
  const number = z.coerce
    .number({ error: `${field} must be an integer` })
    .check(z.refine(Number.isInteger, { error: `${field} must be an integer` }))
    .min(min, { error: `${field} must be ${min} or more` });
  return max === undefined ? number : number.max(max, { error: `${field} must be at most ${max}` });
}

/** `true` / `false` from a query string. */
export function queryBool(field: string) {
  return z.preprocess(
    (value) => (value === 'true' ? true : value === 'false' ? false : value),
    z.boolean({ error: `${field} must be true or false` }),
  );
}

/** `?page=&limit=` of every list endpoint: 1-based page up to MAX_PAGE; a large limit is capped later. */
export const pageQuerySchema = z.strictObject({
  page: queryInt('page', 1, MAX_PAGE).optional().meta({ description: '1-based page', example: 1 }),
  limit: queryInt('limit', 1)
    .optional()
    .meta({ description: 'Items per page (default 20; more than 100 is capped at 100)', example: 20 }),
});

export type PageQuery = z.infer<typeof pageQuerySchema>;

/** `{ items, page, limit, total, totalPages }` of items of one schema. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number(),
    limit: z.number(),
    total: z.number(),
    totalPages: z.number(),
  });
}

/** A field's place as a person writes it: `expectedSources[0].grade`. */
function pathLabel(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) =>
      typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`,
    )
    .join('');
}

/**
 * The issues of a failed parse as the API's 400 messages: a schema's own message names its field
 * (`grade must be an integer`), and a nested one gets its place in front (`expectedSources[0].grade must
 * be an integer`); unknown keys read "property x should not exist"; anything else is prefixed by where
 * it is.
 */
export function issueSentences(error: z.ZodError): string[] {
  const sentences: string[] = [];
  for (const issue of error.issues) {
    const at = pathLabel(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) sentences.push(`property ${at ? `${at}.` : ''}${key} should not exist`);
    } else {
      const last = issue.path[issue.path.length - 1];
      if (typeof last === 'string' && issue.message.startsWith(last)) {
        const parent = pathLabel(issue.path.slice(0, -1));
        sentences.push(parent ? `${parent}.${issue.message}` : issue.message);
      } else {
        sentences.push(at ? `${at}: ${issue.message}` : issue.message);
      }
    }
  }
  return [...new Set(sentences)];
}

/**
 * Reading the server's JSON, shared by the resource files: `parsedBy` parses an answer with its contract
 * schema from libs/shared. Nothing here throws.
 */
import type { z } from 'zod/v4';

/** Fields a tolerant reading gives as null when an older (or odd) server leaves them out. */
export type OrNull<T> = { [K in keyof T]: T[K] | null };

/**
 * A reader that parses an answer with its contract schema from libs/shared: the typed value, or null
 * (the client then reports an unreadable answer). Fields the schema does not know are dropped.
 */
export function parsedBy<T extends z.ZodType>(schema: T): (value: unknown) => z.output<T> | null {
  return (value) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : null;
  };
}

/**
 * Reading the server's JSON, shared by the resource files: `parsedBy` parses an answer with its contract
 * schema from libs/shared; the small helpers beside it serve the readers not yet declared as schemas
 * (document progress events, the identity). Nothing here throws.
 */
import type { z } from 'zod/v4';

type UnknownRecord = Record<string, unknown>;

/** Fields a tolerant reading gives as null when an older (or odd) server leaves them out. */
export type OrNull<T> = { [K in keyof T]: T[K] | null };

export function isRecord(value: unknown): value is UnknownRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

export function optStr(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export function num(value: unknown, fallback = 0): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return fallback;
}

export function optNum(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

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

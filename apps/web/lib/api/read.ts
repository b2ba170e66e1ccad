/**
 * Tolerant reading of the server's JSON, shared by the resource files: required fields are checked
 * (null when missing, so the client reports an unreadable answer), optional ones get defaults. Nothing
 * here throws. What each resource reads is typed from libs/shared.
 */
import type { Page } from '@lumina/shared';
import type { z } from 'zod/v4';

export type UnknownRecord = Record<string, unknown>;

/** Fields a tolerant reading gives as null when an older (or odd) server leaves them out. */
export type OrNull<T> = { [K in keyof T]: T[K] | null };

/**
 * Timings or counts flattened to one level of numbers: `{ total, perBranch: { 'original:bm25': 3 } }`
 * reads as `{ total, 'branch:original:bm25': 3 }`; what is not a number is left out.
 */
export type FlatNumbers = Record<string, number>;

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

export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function numbers(value: unknown): FlatNumbers {
  const out: FlatNumbers = {};
  if (!isRecord(value)) return out;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'number' && Number.isFinite(item)) out[key] = item;
  }
  return out;
}

/** Flattens { total, perBranch: { 'original:bm25': 3 }, llm, … } into { total, 'branch:original:bm25': 3, llm }. */
export function flattenTimings(value: unknown): FlatNumbers {
  const out: FlatNumbers = {};
  if (!isRecord(value)) return out;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'number' && Number.isFinite(item)) out[key] = item;
    else if (isRecord(item)) {
      const prefix = key === 'perBranch' ? 'branch' : key;
      for (const [inner, ms] of Object.entries(numbers(item))) out[`${prefix}:${inner}`] = ms;
    }
  }
  return out;
}

/** Reads `{ items, page, limit, total, totalPages }`; rows that cannot be read are left out. */
export function parsePage<T>(json: unknown, item: (value: unknown) => T | null): Page<T> | null {
  if (!isRecord(json) || !Array.isArray(json.items)) return null;
  const items = json.items.map(item).filter((row): row is T => row !== null);
  const limit = Math.max(1, num(json.limit, items.length || 1));
  const total = num(json.total, items.length);
  return {
    items,
    page: Math.max(1, num(json.page, 1)),
    limit,
    total,
    totalPages: num(json.totalPages, Math.ceil(total / limit)),
  };
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

import { cleanModelOutput, excerpt, extractJson } from './model-output';
import { trimCharsEnd } from '../text/trim-chars';

/** Keys under which models put their list of queries when asked for a JSON object. */
const LIST_KEYS = ['queries', 'variants', 'rewrites', 'expansions', 'questions', 'alternatives', 'results'];
/** Keys of a query inside an object item: [{"query": "…"}]. */
const ITEM_KEYS = ['query', 'text', 'variant', 'rewrite', 'question'];
/** "1. x", "1) x", "(1) x", "- x", "* x", "• x", "Q1: x". */
const LIST_LINE = /^\s*(?:\d{1,2}[.):]|\(\d{1,2}\)|[-*•–]|q\d{1,2}[.):])\s+(.+?)\s*$/i;
/** A label a model puts in front of a query: "Variant 2: …", "Query: …". */
const LABEL = /^(?:variant|query|rewrite|alternative|version|question)\s*\d*\s*[:.\-–]\s*/i;
const MAX_VARIANT_CHARS = 500;

export interface ParseVariantsOptions {
  /**
   * One query per line was asked for: bare lines are queries whatever their number (the last may be cut
   * by the token limit, or repeat an earlier one). Otherwise bare lines count only when there are
   * exactly `count` of them.
   */
  bareLines?: boolean;
}

/**
 * The query variants in a model's answer to the expansion prompt: a JSON array or object, or a
 * numbered or bulleted list (also bare lines when there are exactly `count` of them). Variants are
 * cleaned, deduplicated (case, spacing and trailing punctuation ignored), the original query is
 * dropped, and at most `count` are kept — fewer if the model gave fewer usable ones. Throws, saying
 * what it got, when the answer holds no usable variant.
 */
export function parseVariants(
  output: string,
  count: number,
  query = '',
  options: ParseVariantsOptions = {},
): string[] {
  const text = cleanModelOutput(output);
  const candidates =
    fromJson(text) ?? fromList(text) ?? fromBareLines(text, options.bareLines ? undefined : count);
  if (!candidates) {
    throw new Error(`the model's answer is not a list of queries: ${excerpt(output)}`);
  }
  const seen = new Set([normaliseVariant(query)]);
  const variants: string[] = [];
  for (const candidate of candidates) {
    const variant = tidy(candidate);
    const key = normaliseVariant(variant);
    if (!key || seen.has(key) || variant.length > MAX_VARIANT_CHARS) continue;
    seen.add(key);
    variants.push(variant);
    if (variants.length === count) break;
  }
  if (variants.length === 0) {
    throw new Error(`the model's answer holds no query that differs from the original: ${excerpt(output)}`);
  }
  return variants;
}

/** Case, spacing, quotes and trailing punctuation do not make two queries different. */
export function normaliseVariant(text: string): string {
  const flat = text
    .toLowerCase()
    .replace(/["'“”‘’`]/g, '')
    .replace(/\s+/g, ' ');
  return trimCharsEnd(flat, ' .?!;,').trim();
}

/** An opening `[` or `{` with a closing `]` or `}` somewhere after it (what `/[[{][\s\S]*[\]}]/` tests, linearly). */
function hasBracketedSpan(text: string): boolean {
  const open = text.search(/[[{]/);
  return open >= 0 && Math.max(text.lastIndexOf(']'), text.lastIndexOf('}')) > open;
}

function fromJson(text: string): string[] | undefined {
  if (!/^[[{]/.test(text) && !hasBracketedSpan(text)) return undefined;
  const value = extractJson(text);
  if (value === undefined) {
    if (/^[[{]/.test(text)) throw new Error(`the model's answer is not valid JSON: ${excerpt(text)}`);
    return undefined;
  }
  const strings = stringsOf(value);
  if (strings === undefined && /^[[{]/.test(text)) {
    throw new Error(`the model's JSON answer holds no list of queries: ${excerpt(text)}`);
  }
  return strings;
}

function stringsOf(value: unknown): string[] | undefined {
  if (Array.isArray(value)) {
    const strings = value.flatMap((item) => {
      if (typeof item === 'string') return [item];
      if (item && typeof item === 'object') {
        const record = item as Record<string, unknown>;
        const key = ITEM_KEYS.find((k) => typeof record[k] === 'string');
        return key ? [record[key] as string] : [];
      }
      return [];
    });
    return strings.length ? strings : undefined;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of [...LIST_KEYS, ...Object.keys(record)]) {
      const strings = Array.isArray(record[key]) ? stringsOf(record[key]) : undefined;
      if (strings) return strings;
    }
  }
  return undefined;
}

function fromList(text: string): string[] | undefined {
  const items = text.split('\n').flatMap((line) => {
    const match = LIST_LINE.exec(line);
    return match ? [match[1]] : [];
  });
  return items.length ? items : undefined;
}

/**
 * Bare lines, one query each: with `count`, only when their number is exactly that (≥ 2); without, any
 * number of them. A line ending in a colon is a heading, not a query.
 */
function fromBareLines(text: string, count: number | undefined): string[] | undefined {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (count === undefined) {
    const queries = lines.filter((line) => !line.endsWith(':'));
    return queries.length ? queries : undefined;
  }
  if (count < 2 || lines.length !== count || lines.some((line) => line.endsWith(':'))) return undefined;
  return lines;
}

function tidy(candidate: string): string {
  const unquoted = candidate
    .replace(/\*\*/g, '')
    .trim()
    .replace(LABEL, '')
    .replace(/^["“'`]+/, '');
  return trimCharsEnd(unquoted, `"”'\``).replace(/\s+/g, ' ').trim();
}

/**
 * POST /rag/search, and the reading of what a search answers (hits, expansions, HyDE, timings, the
 * answerability and adaptive decisions), which the chat's `retrieval` event shares.
 */
import type {
  AdaptiveExpansionDecision,
  AnswerabilityVerdict,
  ExpansionTrace,
  HydeTrace,
  PageRange,
  PassageProvenance,
  SearchHit,
  SearchRequest,
  SearchResponse,
  SearchSettings,
} from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import {
  flattenTimings,
  isRecord,
  num,
  numbers,
  optNum,
  optStr,
  str,
  strings,
  type FlatNumbers,
  type UnknownRecord,
} from './read';
import type { RequestOptions, Transport } from './transport';

/**
 * A passage as the web app shows it, from POST /rag/search or the chat's `retrieval` event: `anchor`
 * is '' without a heading, and the span is null when the server did not say.
 */
export type SearchHitView = Pick<
  SearchHit,
  | 'chunkId'
  | 'documentId'
  | 'documentTitle'
  | 'headingPath'
  | 'text'
  | 'pages'
  | 'score'
  | 'similarity'
  | 'provenance'
> & {
  anchor: string;
  spanStart: number | null;
  spanEnd: number | null;
};

/** Who wrote a variant or the HyDE passage: 'llm', 'prf', or whatever an older server named. */
export type GeneratorSourceView = ExpansionTrace['source'] | (string & {});

/**
 * A search as the web app shows it (POST /rag/search, or the chat's `retrieval` event): the hits,
 * variants and HyDE passage with their source, the timings flattened (`perBranch` to `branch:<name>`
 * keys), and null decisions when the server sent none.
 */
export type SearchResponseView = Pick<
  SearchResponse,
  'warnings' | 'belowThreshold' | 'answerability' | 'adaptive'
> & {
  results: SearchHitView[];
  expansions: (Pick<ExpansionTrace, 'variants'> & { source: GeneratorSourceView }) | null;
  hyde: (Pick<HydeTrace, 'passage'> & { source: GeneratorSourceView }) | null;
  /** Milliseconds per stage. */
  timings: FlatNumbers;
};

function parseProvenance(value: unknown): PassageProvenance[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((item) => ({
    branch: str(item.branch, 'unknown'),
    rank: num(item.rank),
    score: num(item.score),
  }));
}

/** `{ first, last }` pages, 1-based; anything else (absent, reversed, fractional) is no pages. */
export function parsePages(value: unknown): PageRange | undefined {
  if (!isRecord(value)) return undefined;
  const first = optNum(value.first);
  const last = optNum(value.last);
  if (first === null || !Number.isInteger(first) || first < 1) return undefined;
  if (last === null) return { first, last: first };
  return Number.isInteger(last) && last >= first ? { first, last } : undefined;
}

export function withPages(value: unknown): { pages?: PageRange } {
  const pages = parsePages(value);
  return pages ? { pages } : {};
}

export function parseSearchHit(value: UnknownRecord): SearchHitView {
  return {
    chunkId: str(value.chunkId ?? value.id),
    documentId: str(value.documentId),
    documentTitle: str(value.documentTitle ?? value.title, 'Untitled document'),
    headingPath: strings(value.headingPath),
    anchor: str(value.anchor),
    text: str(value.text),
    spanStart: optNum(value.spanStart),
    spanEnd: optNum(value.spanEnd),
    ...withPages(value.pages),
    score: num(value.score),
    similarity: optNum(value.similarity),
    provenance: parseProvenance(value.provenance),
  };
}

/** Accepts the wire shape ({ source, variants }) and a bare list of variants. */
export function parseExpansions(value: unknown): SearchResponseView['expansions'] {
  if (Array.isArray(value)) {
    const variants = strings(value);
    return variants.length ? { source: 'unknown', variants } : null;
  }
  if (!isRecord(value)) return null;
  return { source: str(value.source, 'unknown'), variants: strings(value.variants ?? value.queries) };
}

export function parseHyde(value: unknown): SearchResponseView['hyde'] {
  if (typeof value === 'string') return value ? { source: 'unknown', passage: value } : null;
  if (!isRecord(value) || typeof value.passage !== 'string') return null;
  return { source: str(value.source, 'unknown'), passage: value.passage };
}

export function parseSearchResponse(json: unknown): SearchResponseView | null {
  if (!isRecord(json) || !Array.isArray(json.results)) return null;
  return {
    results: json.results.filter(isRecord).map(parseSearchHit),
    expansions: parseExpansions(json.expansions),
    hyde: parseHyde(json.hyde),
    timings: flattenTimings(json.timings),
    warnings: strings(json.warnings),
    belowThreshold: json.belowThreshold === true,
    answerability: parseAnswerability(json.answerability),
    adaptive: parseAdaptive(json.adaptive),
  };
}

/**
 * The answerability decision (score, threshold, features and their contributions). Null when absent
 * or unreadable: servers before the decision existed send none.
 */
export function parseAnswerability(value: unknown): AnswerabilityVerdict | null {
  if (!isRecord(value)) return null;
  const score = optNum(value.score);
  const threshold = optNum(value.threshold);
  if (score === null || threshold === null) return null;
  return {
    modelVersion: str(value.modelVersion, 'unknown'),
    score,
    threshold,
    answerable: typeof value.answerable === 'boolean' ? value.answerable : score >= threshold,
    features: numbers(value.features),
    contributions: numbers(value.contributions),
    terms: (Array.isArray(value.terms) ? value.terms : [])
      .filter(isRecord)
      .flatMap((term) =>
        typeof term.term === 'string' ? [{ term: term.term, df: num(term.df), idf: num(term.idf) }] : [],
      ),
  };
}

const ADAPTIVE_BRANCHES = ['expansion', 'hyde'] as const;

/** The adaptive-expansion decision; null when absent (nothing was adaptive, or an older server). */
export function parseAdaptive(value: unknown): AdaptiveExpansionDecision | null {
  if (!isRecord(value)) return null;
  const branches = (list: unknown) =>
    ADAPTIVE_BRANCHES.filter((branch) => Array.isArray(list) && list.includes(branch));
  return {
    policyVersion: optStr(value.policyVersion),
    confidence: optNum(value.confidence),
    threshold: optNum(value.threshold),
    skipped: branches(value.skipped),
    ran: branches(value.ran),
    features: numbers(value.features),
    contributions: numbers(value.contributions),
  };
}

export function searchApi(http: Transport) {
  return {
    /** POST /rag/search with the fully merged settings, so the server never guesses. */
    search(
      query: string,
      settings: SearchSettings,
      { signal }: RequestOptions = {},
    ): Promise<SearchResponseView> {
      const body: SearchRequest = { query, settings };
      return http.json(
        API_OPERATIONS.search,
        { body, signal },
        parseSearchResponse,
        'expected { results: [...] }',
      );
    },
  };
}

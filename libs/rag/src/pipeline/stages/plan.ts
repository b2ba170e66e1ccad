import { resolveSettings } from '@lumina/shared';
import type { SearchSettings } from '@lumina/shared';
import { withoutFramingWords } from '../../answerability/framing-words';
import type { TermEvidence } from '../../answerability/term-evidence';
import { l2Normalize } from '../../dense/l2-normalize';
import { queryTexts } from '../../embedding/query-texts';
import type { RankedList } from '../../fusion/reciprocal-rank-fusion';
import type { ChunkFilter, ScoredChunk } from '../../ports/chunk-search.port';
import { isEvidenceReranker } from '../../rerank/reranker.port';
import type { SearchPorts } from '../search-ports';
import { DEFAULT_SEARCH_OPTIONS } from '../search-options';
import type { SearchOptions } from '../search-options';
import { withDeadline } from '../with-deadline';

export type Ranker = SearchSettings['ranker'];

/**
 * One search as planned: its resolved settings and options, what every branch searches, and the
 * bookkeeping the stages share (warnings, per-branch timings, the slowest LLM call). Built by
 * `planSearch`; each later stage reads it and adds warnings and timings to it.
 */
export interface SearchRun {
  query: string;
  settings: SearchSettings;
  opts: SearchOptions;
  ports: SearchPorts;
  signal?: AbortSignal;
  now: () => number;
  started: number;
  warnings: string[];
  perBranch: Record<string, number>;
  /** The slowest LLM generation so far (expansion and HyDE run at the same time). */
  llm: { ms: number };
  filter: ChunkFilter;
  /** How deep each branch list goes. */
  depth: number;
  /** The query is embedded (a dense or hybrid ranker, a similarity threshold, or a reranker that weighs
   *  the query's cosine to each candidate). */
  needsQueryVector: boolean;
  /** The question's language (ISO 639-1) as the detector tells it; null: not told, or no detector. */
  language: string | null;
  /** Term evidence read this search, by chunk ids: the adaptive decision and the answerability decision
   *  often ask for the same top passages. */
  evidence: Map<string, Promise<TermEvidence>>;
}

/** The plan stage: settings over the defaults, options over the measured ones, depth and filter. */
export function planSearch(
  query: string,
  requested: Partial<SearchSettings>,
  ports: SearchPorts,
  options: Partial<SearchOptions>,
  signal: AbortSignal | undefined,
): SearchRun {
  const settings = resolveSettings(requested);
  const measured: SearchOptions = { ...DEFAULT_SEARCH_OPTIONS, ...options };
  const language = ports.languages?.detect(query) ?? null;
  const opts = measured;
  const now = ports.now ?? (() => performance.now());
  return {
    query,
    settings,
    opts,
    ports,
    signal,
    now,
    started: now(),
    warnings: [],
    perBranch: {},
    llm: { ms: 0 },
    filter: {
      ...(settings.documentIds.length ? { documentIds: settings.documentIds } : {}),
      ...(opts.collectionIds ? { collectionIds: opts.collectionIds } : {}),
    },
    depth: Math.max(settings.candidateK, settings.topK, settings.ranker === 'hybrid' ? opts.hybridDepth : 0),
    needsQueryVector:
      settings.ranker !== 'bm25' ||
      settings.minScore > 0 ||
      (settings.enableRerank && rerankerNeedsQueryVector(ports.reranker)),
    language,
    evidence: new Map(),
  };
}

/**
 * The language stage, after the plan: a hybrid search of a question in a language the dense encoder was
 * not trained on ranks by keywords alone (the dense list keeps its place in the trace with no weight),
 * when some searched document is in a language the encoder was not trained on either. Over documents all
 * in the encoder's languages, a question that reads as another is most often the detector misreading a
 * short one (NFCorpus titles such as "Uric Acid From Meat and Sugar" read as Tagalog: 96 of its 324 dev
 * questions, costing its hybrid 0.013 nDCG@10), and when it is not, keywords cannot match across
 * languages either: the encoder keeps its weight. Over Hindi documents, a Hindi question read as Marathi
 * is still routed. The corpus is asked only when the question reads as foreign.
 */
export async function routeLanguage(run: SearchRun): Promise<SearchRun> {
  const { settings, opts, language, ports } = run;
  if (!readsForeign(opts, settings.ranker, language)) return run;
  const corpus = ports.chunks.corpusLanguages ? await ports.chunks.corpusLanguages(run.filter) : null;
  const { opts: routed, warning } = routeByLanguage(
    opts,
    settings.ranker,
    language,
    ports.embedder.modelId,
    corpus,
  );
  return warning ? { ...run, opts: routed, warnings: [...run.warnings, warning] } : run;
}

function readsForeign(opts: SearchOptions, ranker: Ranker, language: string | null): language is string {
  return (
    ranker === 'hybrid' &&
    opts.denseLanguages !== null &&
    language !== null &&
    !opts.denseLanguages.includes(language) &&
    opts.weights.dense > 0
  );
}

/**
 * A hybrid search of a question in a language the dense encoder was not trained on ranks by keywords
 * alone, unless `corpus` (the searched documents' languages; null: not known) is all in the encoder's.
 * An explicit dense ranker is left as asked. Measured on XQuAD with all-MiniLM-L6-v2 (English only), equal
 * fusion lost 0.045 nDCG@10 in German, 0.086 in Spanish and 0.227 in Chinese against BM25.
 */
export function routeByLanguage(
  opts: SearchOptions,
  ranker: Ranker,
  language: string | null,
  encoder: string,
  corpus: readonly string[] | null = null,
): { opts: SearchOptions; warning: string | null } {
  const foreign =
    readsForeign(opts, ranker, language) &&
    (corpus === null || corpus.some((code) => !opts.denseLanguages!.includes(code)));
  if (!foreign) return { opts, warning: null };
  return {
    opts: { ...opts, weights: { ...opts.weights, dense: 0 } },
    warning:
      `The question reads as ${language}, and the embedder (${encoder}) was trained on ` +
      `${opts.denseLanguages!.join(', ')} only: the hybrid ranks it by keywords.`,
  };
}

function rerankerNeedsQueryVector(reranker: SearchPorts['reranker']): boolean {
  return !!reranker && isEvidenceReranker(reranker) && reranker.needsQueryVector === true;
}

/**
 * What the index knows of the query's words (read without the words that only ask for a form of answer,
 * "explain … step by step"), against these passages; read once per search for the same passages.
 * Callers check that the index has `termEvidence`.
 */
export function termEvidenceFor(run: SearchRun, chunkIds: string[]): Promise<TermEvidence> {
  const key = chunkIds.join(' ');
  let read = run.evidence.get(key);
  if (!read) {
    read = run.ports.chunks.termEvidence!(withoutFramingWords(run.query), chunkIds, run.filter);
    run.evidence.set(key, read);
    // A failed read is not kept: a later stage asks again, as it would have alone.
    read.catch(() => run.evidence.delete(key));
  }
  return read;
}

/** Time a piece of work into `perBranch[name]`. */
export async function timed<T>(run: SearchRun, name: string, work: () => Promise<T>): Promise<T> {
  const t0 = run.now();
  try {
    return await work();
  } finally {
    run.perBranch[name] = round(run.now() - t0);
  }
}

/** Every LLM call: a deadline, and an abort that reaches the HTTP request (timeout or caller's abort). */
export function llmCall<T>(run: SearchRun, label: string, work: (s: AbortSignal) => Promise<T>): Promise<T> {
  return withDeadline(label, run.opts.llmTimeoutMs, work, run.signal);
}

/** A generation call (expansion, HyDE): timed in perBranch as `llm:<name>`; `llm` is the slowest. */
export async function generate<T>(
  run: SearchRun,
  name: string,
  label: string,
  work: (s: AbortSignal) => Promise<T>,
): Promise<T> {
  const t0 = run.now();
  try {
    return await llmCall(run, label, work);
  } finally {
    run.perBranch[`llm:${name}`] = round(run.now() - t0);
    run.llm.ms = Math.max(run.llm.ms, run.now() - t0);
  }
}

/** Embeds search queries (behind the model's query prefix) or, `as: 'passage'`, a passage such as HyDE's. */
export async function embedMany(
  run: SearchRun,
  texts: string[],
  as: 'query' | 'passage' = 'query',
): Promise<number[][]> {
  const { embedder } = run.ports;
  const inputs = as === 'query' ? queryTexts(embedder, texts) : texts;
  return (await embedder.embed(inputs, run.signal)).map((vector) => l2Normalize(vector));
}

/**
 * Which lists a branch searches. A hybrid list with weight 0 cannot change the fused ranking (it only
 * shows up in provenance), so only the original query still searches it; the expansion and HyDE
 * branches, which run after the LLM answers and so add to the wall time, leave it out.
 */
export function weightOf(run: SearchRun, ranker: Ranker, list: 'lexical' | 'dense'): number {
  return ranker === 'hybrid' ? run.opts.weights[list] : 1;
}

export function searches(run: SearchRun, name: string, ranker: Ranker, list: 'lexical' | 'dense'): boolean {
  return (
    (list === 'lexical' ? ranker !== 'dense' : ranker !== 'bm25') &&
    (name === 'original' || weightOf(run, ranker, list) > 0)
  );
}

/** One branch's ranked lists (BM25 and/or dense), timed under its name, in name order. */
export function rankLists(
  run: SearchRun,
  name: string,
  text: string,
  ranker: Ranker,
  vector?: Promise<number[]>,
): Promise<RankedList[]> {
  const { chunks } = run.ports;
  return timed(run, name, async () => {
    const lists: RankedList[] = [];
    const jobs: Promise<void>[] = [];
    if (searches(run, name, ranker, 'lexical')) {
      jobs.push(
        chunks.lexical(text, run.depth, run.filter).then((items) => {
          lists.push(toList(`${name}:bm25`, items, weightOf(run, ranker, 'lexical')));
        }),
      );
    }
    if (searches(run, name, ranker, 'dense')) {
      jobs.push(
        // Without a vector it is the HyDE passage: a passage, embedded as the chunks were.
        (vector ?? embedMany(run, [text], 'passage').then((all) => all[0]))
          .then((v) => chunks.dense(v, run.depth, { ...run.filter, exact: run.opts.exactDense }))
          .then((items) => {
            lists.push(toList(`${name}:dense`, items, weightOf(run, ranker, 'dense')));
          }),
      );
    }
    await Promise.all(jobs);
    return lists.sort((a, b) => (a.name < b.name ? -1 : 1));
  });
}

function toList(name: string, items: ScoredChunk[], weight: number): RankedList {
  return { name, weight, items: items.map((item) => ({ id: item.chunkId, score: item.score })) };
}

export function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

export function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6 || 0;
}

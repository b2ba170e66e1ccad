import type { ChunkFilter, ChunkRecord, ChunkSearch, ScoredChunk } from '../ports/chunk-search.port';
import type { EmbeddingProvider } from '../ports/embedding-provider.port';
import type { RerankEvidence } from '../rerank/learned/rerank-evidence';
import type { TermEvidence } from '../answerability/term-evidence';
import { delay } from './fake-chat-model';

export interface CallLog {
  what: string;
  text: string;
  startedAt: number;
  endedAt?: number;
}

/**
 * An embedder for unit tests: every distinct text gets its own one-hot vector, so a fake dense search
 * can tell which text a vector came from. Waits `latencyMs` per call.
 */
export class FakeEmbedder implements EmbeddingProvider {
  readonly modelId = 'fake-embedder';
  readonly dimension = 64;
  readonly maxInputChars = 10_000;
  readonly calls: CallLog[] = [];
  private readonly texts: string[] = [];

  constructor(
    private readonly latencyMs = 0,
    readonly queryPrefix?: string,
  ) {}

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const call: CallLog = { what: 'embed', text: texts.join(' | '), startedAt: performance.now() };
    this.calls.push(call);
    await delay(this.latencyMs, signal);
    call.endedAt = performance.now();
    return texts.map((text) => {
      let index = this.texts.indexOf(text);
      if (index < 0) index = this.texts.push(text) - 1;
      const vector = new Array<number>(this.dimension).fill(0);
      vector[index % this.dimension] = 1;
      return vector;
    });
  }

  textOf(vector: number[]): string | undefined {
    return this.texts[vector.indexOf(1)];
  }
}

export interface FakeChunkSearchOptions {
  /** BM25 hits per query text, best first (scores fall from 10 by 1). */
  lexical?: Record<string, string[]>;
  /** Dense hits per embedded text, best first (scores fall from 0.9 by 0.1). */
  dense?: Record<string, string[]>;
  lexicalMs?: number;
  denseMs?: number;
  /** Texts whose lexical search throws. */
  failLexical?: string[];
  /** Cosine similarity per chunk id for thresholds (default 0.5). */
  similarity?: Record<string, number>;
  /** The learned reranker's evidence for a query and chunk ids; without it the port is absent. */
  rerankEvidence?: (query: string, chunkIds: string[]) => RerankEvidence;
  /** The answerability / adaptive features' evidence for a query and chunk ids; without it the port is absent. */
  termEvidence?: (query: string, chunkIds: string[]) => TermEvidence;
}

/** A ChunkSearch over hand-made ranked lists, with latencies and a log of the calls. */
export class FakeChunkSearch implements ChunkSearch {
  readonly calls: CallLog[] = [];
  readonly rerankEvidence?: (query: string, chunkIds: string[]) => Promise<RerankEvidence>;
  readonly termEvidence?: (query: string, chunkIds: string[]) => Promise<TermEvidence>;

  constructor(
    private readonly embedder: FakeEmbedder,
    private readonly options: FakeChunkSearchOptions = {},
  ) {
    const evidence = options.rerankEvidence;
    if (evidence) this.rerankEvidence = async (query, chunkIds) => evidence(query, chunkIds);
    const terms = options.termEvidence;
    if (terms) this.termEvidence = async (query, chunkIds) => terms(query, chunkIds);
  }

  async lexical(query: string, k: number, filter?: ChunkFilter): Promise<ScoredChunk[]> {
    const call: CallLog = { what: 'lexical', text: query, startedAt: performance.now() };
    this.calls.push(call);
    await delay(this.options.lexicalMs ?? 0);
    call.endedAt = performance.now();
    if (this.options.failLexical?.includes(query)) throw new Error(`lexical search failed for "${query}"`);
    return this.ranked(this.options.lexical?.[query] ?? [], 10, 1, k, filter);
  }

  async dense(vector: number[], k: number, filter?: ChunkFilter): Promise<ScoredChunk[]> {
    const text = this.embedder.textOf(vector) ?? '';
    const call: CallLog = { what: 'dense', text, startedAt: performance.now() };
    this.calls.push(call);
    await delay(this.options.denseMs ?? 0);
    call.endedAt = performance.now();
    return this.ranked(this.options.dense?.[text] ?? [], 0.9, 0.1, k, filter);
  }

  async fetch(chunkIds: string[]): Promise<ChunkRecord[]> {
    return chunkIds.map((id, ordinal) => ({
      chunkId: id,
      documentId: `doc-${id}`,
      documentTitle: `Document ${id}`,
      externalId: null,
      ordinal,
      text: `text of ${id}`,
      headingPath: [],
      anchor: null,
      spanStart: 0,
      spanEnd: 10,
    }));
  }

  async similarity(chunkIds: string[]): Promise<Map<string, number>> {
    return new Map(chunkIds.map((id) => [id, this.options.similarity?.[id] ?? 0.5]));
  }

  private ranked(ids: string[], top: number, step: number, k: number, filter?: ChunkFilter): ScoredChunk[] {
    return ids
      .filter((id) => !filter?.documentIds?.length || filter.documentIds.includes(`doc-${id}`))
      .slice(0, k)
      .map((chunkId, i) => ({ chunkId, score: Math.round((top - i * step) * 1000) / 1000 }));
  }
}

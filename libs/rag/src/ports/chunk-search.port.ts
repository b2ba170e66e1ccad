import type { TermEvidence } from '../answerability/term-evidence';
import type { RerankEvidence } from '../rerank/learned/rerank-evidence';
import type { PageRange } from '@lumina/shared';

/** One hit of a ranker: a chunk id and that ranker's score (BM25 score, or cosine similarity). */
export interface ScoredChunk {
  chunkId: string;
  score: number;
}

export interface ChunkFilter {
  /** Only chunks of these documents; empty or undefined means every document. */
  documentIds?: string[];
  /**
   * Only chunks of these collections, whose statistics (N, average length, document frequencies) are
   * the ones BM25 and the evidence read; undefined means every collection.
   */
  collectionIds?: readonly string[];
}

/** A retrieved passage with what the answerer and the citations need. */
export interface ChunkRecord {
  chunkId: string;
  documentId: string;
  documentTitle: string;
  externalId: string | null;
  ordinal: number;
  text: string;
  headingPath: string[];
  anchor: string | null;
  spanStart: number;
  spanEnd: number;
  /** Pages of a paged source (PDF) the chunk runs over; absent for unpaged ones. */
  pages?: PageRange;
}

/** Ranked retrieval over the stored chunks. Implemented with SQL in apps/server. */
export interface ChunkSearch {
  /** Okapi BM25 over the chunks' indexed text, best first. */
  lexical(query: string, k: number, filter?: ChunkFilter): Promise<ScoredChunk[]>;
  /** Cosine similarity to the vector, best first (approximate with HNSW unless `exact`). */
  dense(vector: number[], k: number, filter?: ChunkFilter & { exact?: boolean }): Promise<ScoredChunk[]>;
  /** The chunks with these ids, in the order given (unknown ids are left out). */
  fetch(chunkIds: string[]): Promise<ChunkRecord[]>;
  /** Cosine similarity of each chunk to the vector (chunks without a vector are left out). */
  similarity(chunkIds: string[], vector: number[]): Promise<Map<string, number>>;
  /**
   * The query's lexemes with their document frequencies, and which of them each chunk holds (the
   * answerability decision's evidence). Optional: without it no decision is taken.
   */
  termEvidence?(query: string, chunkIds: string[], filter?: ChunkFilter): Promise<TermEvidence>;
  /**
   * The languages (ISO 639-1) the searched documents are in, given or detected. Optional: without it a
   * question's detected language is taken at its word when the search routes by language.
   */
  corpusLanguages?(filter?: ChunkFilter): Promise<string[]>;
  /**
   * The learned reranker's evidence: the query's lexemes (df, position in the query), and for each chunk
   * (one entry per id asked, in that order) its length, the positions of the query's lexemes in its
   * indexed text, and their counts in its document's title and its heading path. Optional: without it
   * the learned reranker cannot run.
   */
  rerankEvidence?(query: string, chunkIds: string[], filter?: ChunkFilter): Promise<RerankEvidence>;
}

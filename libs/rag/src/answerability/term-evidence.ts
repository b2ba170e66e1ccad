/**
 * What the index knows about a query's words, read with the same analysis as BM25: every lexeme of the
 * query with its document frequency (0 when the corpus never uses it), and the query lexemes each top
 * passage contains. Everything the answerability features need, in one read.
 */
export interface QueryTermStat {
  term: string;
  /** Occurrences in the query. */
  qtf: number;
  /** Chunks containing the term (0: the corpus never uses it). */
  df: number;
}

export interface PassageTermStat {
  chunkId: string;
  /** Indexed length of the chunk (tokens), as BM25 counts it. */
  length: number;
  /** Term frequency in the chunk of each query term it contains. */
  tf: Record<string, number>;
}

export interface TermEvidence {
  /** Chunks in the corpus, and their average indexed length. */
  corpus: { chunks: number; avgLength: number };
  /** The index's BM25 parameters. */
  bm25: { k1: number; b: number };
  terms: QueryTermStat[];
  /** In the order asked for. */
  passages: PassageTermStat[];
}

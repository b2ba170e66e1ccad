/**
 * What the index knows about a query and its candidate passages, read with the same analysis as BM25
 * (the lexemes, document frequencies, lengths and k1/b the search itself uses), plus what BM25 does not
 * read: where in the passage each query word stands, and which query words its title and heading path
 * hold. Everything the learned reranker's features need, in one read.
 */
export interface RerankQueryTerm {
  term: string;
  /** Occurrences in the query. */
  qtf: number;
  /** Chunks containing the term (0: the corpus never uses it). */
  df: number;
  /** First position of the term in the analysed query (1-based), for word order. */
  position: number;
}

export interface RerankPassageEvidence {
  chunkId: string;
  /** Indexed length of the chunk (tokens), as BM25 counts it. */
  length: number;
  /** Positions (1-based, in the indexed text) of each query term the passage holds. */
  positions: Record<string, number[]>;
  /** Term frequency of each query term in the document's title, and the title's length in tokens. */
  titleTf: Record<string, number>;
  titleLength: number;
  /** The same for the passage's heading path (its headings joined). */
  headingTf: Record<string, number>;
  headingLength: number;
  /**
   * Cosine similarity of the query's vector to the passage's stored vector, when the search embedded
   * the query and the passage has a vector (null or absent otherwise).
   */
  cosine?: number | null;
}

export interface RerankEvidence {
  /** Chunks in the corpus and their average indexed length. */
  corpus: { chunks: number; avgLength: number };
  /** The index's BM25 parameters. */
  bm25: { k1: number; b: number };
  terms: RerankQueryTerm[];
  /** In the order of the candidates asked for. */
  passages: RerankPassageEvidence[];
}

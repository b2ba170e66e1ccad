/** Re-scores candidate passages for a query (a /v1/rerank endpoint, or an LLM listwise rerank). */
export interface Reranker {
  readonly modelId: string;
  /** Relevance score per passage, same order as given; higher is better. */
  rerank(query: string, passages: string[], signal: AbortSignal): Promise<number[]>;
}

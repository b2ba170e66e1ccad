/** Writes alternative phrasings of a query (an LLM behind the server's ChatModel). */
export interface QueryExpander {
  readonly modelId: string;
  expand(query: string, count: number, signal: AbortSignal): Promise<string[]>;
}

/** Writes a short hypothetical passage that would answer the query (HyDE). */
export interface HydeGenerator {
  readonly modelId: string;
  generate(query: string, signal: AbortSignal): Promise<string>;
}

/** Turns texts into L2-normalised vectors. Implemented in apps/server/providers. */
export interface EmbeddingProvider {
  /** Identifies the model (and its settings) so cached vectors are never mixed across models. */
  readonly modelId: string;
  readonly dimension: number;
  /** Characters of input the model sees; longer texts are cut to this before embedding. */
  readonly maxInputChars: number;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

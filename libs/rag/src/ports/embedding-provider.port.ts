/** Turns texts into L2-normalised vectors. Implemented in apps/server/providers. */
export interface EmbeddingProvider {
  /** Identifies the model (and its settings) so cached vectors are never mixed across models. */
  readonly modelId: string;
  readonly dimension: number;
  /** Characters of input the model sees; longer texts are cut to this before embedding. */
  readonly maxInputChars: number;
  /**
   * Text the model wants before a search query and never before a passage (bge's retrieval instruction);
   * absent for models that embed both alike. Callers embedding queries add it with `queryTexts`; wrappers
   * pass it on.
   */
  readonly queryPrefix?: string;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

import type { EmbeddingProvider } from '../ports/embedding-provider.port';

/**
 * The texts to embed for search queries: each behind the model's query prefix when it has one. Passages
 * (chunks, a HyDE passage, candidate sentences) are embedded as they are.
 */
export function queryTexts(embedder: Pick<EmbeddingProvider, 'queryPrefix'>, texts: string[]): string[] {
  const prefix = embedder.queryPrefix;
  return prefix ? texts.map((text) => `${prefix}${text}`) : texts;
}

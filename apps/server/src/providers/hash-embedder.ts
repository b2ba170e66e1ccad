import { createHash } from 'node:crypto';
import type { EmbeddingProvider } from '@lumina/rag';

export const HASH_EMBEDDING_DIMENSION = 512;
export const HASH_EMBEDDING_MODEL = 'hash-512';

/**
 * A deterministic, near-instant stand-in for an embedding model, for benchmarks that measure the rest
 * of the pipeline (EMBEDDINGS_PROVIDER=hash): each lower-cased word adds ±1 to a few components chosen
 * by its SHA-1, and the sum is normalised. Texts sharing words get similar vectors; it knows nothing of
 * meaning, so never serve users with it.
 */
export class HashEmbedder implements EmbeddingProvider {
  readonly modelId = HASH_EMBEDDING_MODEL;
  readonly dimension = HASH_EMBEDDING_DIMENSION;
  readonly maxInputChars = 100_000;

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((text) => hashVector(text, this.dimension));
  }
}

export function hashVector(text: string, dimension: number): number[] {
  const vector = new Float64Array(dimension);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const digest = createHash('sha1').update(word).digest();
    for (let i = 0; i < 4; i++) {
      const slot = digest.readUInt32LE(i * 4) % dimension;
      vector[slot] += digest[16 + i] & 1 ? 1 : -1;
    }
  }
  let norm = 0;
  for (const v of vector) norm += v * v;
  // An empty text still gets a unit vector (the first axis), as models return one for any input.
  if (norm === 0) return Array.from({ length: dimension }, (_, i) => (i === 0 ? 1 : 0));
  const scale = 1 / Math.sqrt(norm);
  return Array.from(vector, (v) => v * scale);
}

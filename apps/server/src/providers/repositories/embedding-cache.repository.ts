import type { EntityManager } from 'typeorm';
import { toVectorLiteral } from '../../database/pgvector';

/** Keys looked up per statement. */
const LOOKUP_BATCH = 1000;

/** The embedding cache table: vectors by key (see embeddingCacheKey). */
export class EmbeddingCacheRepository {
  constructor(private readonly manager: EntityManager) {}

  /** The cached vectors of those keys that have one. */
  async find(keys: string[]): Promise<Map<string, number[]>> {
    const found = new Map<string, number[]>();
    for (let i = 0; i < keys.length; i += LOOKUP_BATCH) {
      const rows: { key: string; embedding: string }[] = await this.manager.query(
        `SELECT key, embedding::text AS embedding FROM embedding_cache WHERE key = ANY($1::text[])`,
        [keys.slice(i, i + LOOKUP_BATCH)],
      );
      for (const row of rows) found.set(row.key, JSON.parse(row.embedding) as number[]);
    }
    return found;
  }

  /** Stores vectors under their keys; a key already there keeps its vector. */
  async store(keys: string[], vectors: number[][], model: string, dimension: number): Promise<void> {
    await this.manager.query(
      `INSERT INTO embedding_cache (key, model, dimension, embedding)
       SELECT k, $3, $4, v::vector FROM unnest($1::text[], $2::text[]) AS t(k, v)
       ON CONFLICT (key) DO NOTHING`,
      [keys, vectors.map(toVectorLiteral), model, dimension],
    );
  }
}

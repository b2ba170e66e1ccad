import type { MigrationInterface } from 'typeorm';
import { createInitialSchemaMigration } from './1764500000000-initial-schema';
import { Bm25Index1764500000100 } from './1764500000100-bm25-index';
import { EmbeddingCache1764500000200 } from './1764500000200-embedding-cache';

/** Every migration in order. The chunk vector dimension comes from the configured embedder. */
export function allMigrations(embeddingDimension: number): (new () => MigrationInterface)[] {
  return [
    createInitialSchemaMigration(embeddingDimension),
    Bm25Index1764500000100,
    EmbeddingCache1764500000200,
  ];
}

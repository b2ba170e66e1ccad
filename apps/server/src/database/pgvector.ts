import type { Env } from '../config/env.schema';

/**
 * pgvector in one place: how a vector is written as a query parameter, how the chunks' vectors are
 * stored (EMBEDDING_STORAGE), and the statements that convert them.
 */

/** A vector as pgvector's text input (`[0.1,0.2,…]`), for a `$n::vector` or `$n::halfvec` parameter. */
export function toVectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(',')}]`;
}

/**
 * How chunk vectors are stored. `vector`: 4-byte floats (4·D + 8 bytes a vector). `halfvec`: IEEE half
 * floats (2·D + 8 bytes), half the heap and HNSW index, with cosine scores within about 1e-3 of the
 * float ones. Queries cast their parameter to the same type, so the HNSW index (whose operator class
 * follows the type) is used.
 */
export type EmbeddingStorage = Env['EMBEDDING_STORAGE'];

export const EMBEDDING_STORAGES: readonly EmbeddingStorage[] = ['vector', 'halfvec'];

export const CHUNK_EMBEDDING_INDEX = 'chunks_embedding_hnsw_idx';

/** The migration that applies EMBEDDING_STORAGE (its name in the migrations table). */
export const EMBEDDING_STORAGE_MIGRATION = 'EmbeddingStorage1764500004000';

/** The HNSW operator class for cosine distance on the storage type. */
export function cosineOpsFor(storage: EmbeddingStorage): string {
  return storage === 'halfvec' ? 'halfvec_cosine_ops' : 'vector_cosine_ops';
}

/**
 * The statements that turn the chunks' embedding column into `storage` with `dimension` and rebuild
 * the HNSW index with the matching operator class (a table rewrite: every vector is converted).
 * The index keeps pgvector's defaults (m = 16, ef_construction = 64), as the initial schema made it.
 */
export function convertEmbeddingStorageSql(storage: EmbeddingStorage, dimension: number): string[] {
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > 16000) {
    throw new RangeError(`embedding dimension must be an integer in 1..16000, got ${dimension}`);
  }
  if (!EMBEDDING_STORAGES.includes(storage)) {
    throw new RangeError(`embedding storage must be one of ${EMBEDDING_STORAGES.join(', ')}, got ${storage}`);
  }
  return [
    `DROP INDEX IF EXISTS ${CHUNK_EMBEDDING_INDEX}`,
    `ALTER TABLE chunks ALTER COLUMN embedding TYPE ${storage}(${dimension}) USING embedding::${storage}(${dimension})`,
    `CREATE INDEX ${CHUNK_EMBEDDING_INDEX} ON chunks USING hnsw (embedding ${cosineOpsFor(storage)})`,
  ];
}

/**
 * The statements that give the chunks' embedding column another width (a new embedder): every stored
 * vector is dropped (a vector of one model means nothing to another) and the HNSW index is made again
 * over the empty column, which costs nothing; the re-embed job fills it.
 */
export function resizeEmbeddingColumnSql(storage: EmbeddingStorage, dimension: number): string[] {
  const [dropIndex, , createIndex] = convertEmbeddingStorageSql(storage, dimension);
  return [
    dropIndex,
    `ALTER TABLE chunks ALTER COLUMN embedding TYPE ${storage}(${dimension}) USING NULL`,
    `UPDATE chunks SET embedding_model = NULL WHERE embedding_model IS NOT NULL`,
    createIndex,
  ];
}

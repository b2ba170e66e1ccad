import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import {
  ADOPT_EMBEDDER_SQL,
  ANY_CHUNK_LACKS_VECTOR_SQL,
  DROP_OTHER_MODELS_VECTORS_SQL,
  LOCK_EMBEDDER_STATE_SQL,
} from './embedder-switch.sql';
import { EMBEDDING_STORAGES, resizeEmbeddingColumnSql } from './pgvector';
import type { EmbeddingStorage } from './pgvector';
import { EMBEDDING_COLUMN_SQL } from './schema-check.sql';

/**
 * Makes the database's vectors the configured embedder's, at the start of the process that runs the
 * migrations. When the vectors come from another model, they are dropped, in one transaction: the column
 * is given the new width if it differs (the HNSW index made again over it), or the other model's vectors
 * are cleared (same width, as all-MiniLM and bge-small: one model's query vector ranked against another's
 * passages would be noise). The state row then says a re-embed is pending; the ingestion reconciler
 * queues the job, which takes vectors from the embedding cache where it has them (switching back to a
 * model used before computes nothing) and reports its progress in the same row. Keyword search is
 * untouched meanwhile; the dense branch ranks the chunks already re-embedded.
 */
export async function adoptEmbedder(
  dataSource: DataSource,
  target: { model: string; dimension: number },
): Promise<void> {
  await dataSource.transaction(async (manager) => {
    const [state]: { model: string | null }[] = await manager.query(LOCK_EMBEDDER_STATE_SQL);
    const [column]: { type: string; dimension: number }[] = await manager.query(EMBEDDING_COLUMN_SQL);
    if (!state || !column) return;
    const from = state.model;
    const resize = column.dimension !== target.dimension;
    if (!resize && from === target.model) return;
    if (resize) {
      // Keep the stored type (vector or halfvec): EMBEDDING_STORAGE's own check and remedy come after.
      const storage = (
        EMBEDDING_STORAGES.includes(column.type as EmbeddingStorage) ? column.type : 'vector'
      ) as EmbeddingStorage;
      for (const statement of resizeEmbeddingColumnSql(storage, target.dimension))
        await manager.query(statement);
    } else if (from !== null) {
      await manager.query(DROP_OTHER_MODELS_VECTORS_SQL, [target.model]);
    }
    const [{ lacking }]: { lacking: boolean }[] = await manager.query(ANY_CHUNK_LACKS_VECTOR_SQL, [
      target.model,
    ]);
    await manager.query(ADOPT_EMBEDDER_SQL, [target.model, lacking]);
    if (from !== null || resize) {
      new Logger('EmbedderSwitch').warn(
        `The chunks' vectors came from ${from ?? 'an unrecorded model'}` +
          (resize ? ` (${column.dimension}-d)` : '') +
          `; the embedder is now ${target.model}${resize ? ` (${target.dimension}-d)` : ''}. ` +
          (lacking
            ? 'Their vectors were dropped and the re-embed job will compute new ones (keyword search works meanwhile).'
            : 'No chunk needed a new vector.'),
      );
    }
  });
}

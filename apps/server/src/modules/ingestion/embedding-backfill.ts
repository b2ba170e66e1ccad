import type { EmbeddingProvider } from '@lumina/rag';
import type { DataSource } from 'typeorm';
import { toVectorLiteral } from '../../database/pgvector';

const PENDING = `(embedding IS NULL OR embedding_model IS DISTINCT FROM $1)`;

/**
 * Give every chunk without a vector for the embedder's model one (the re-embed backfill, e.g. after the
 * embedding model changed). Walks the pending chunks in id order, a batch at a time, so memory stays flat
 * and a retry after a crash resumes with what is still missing; with a CachedEmbedder only texts the
 * cache lacks reach the model. Used by the re-embed job and by the eval CLI. Returns the chunks updated.
 */
export async function backfillEmbeddings(
  dataSource: DataSource,
  embedder: EmbeddingProvider,
  report: (done: number, total: number) => void | Promise<void>,
  batchSize = 64,
): Promise<number> {
  const model = embedder.modelId;
  const [{ total }]: { total: number }[] = await dataSource.query(
    `SELECT count(*)::int AS total FROM chunks WHERE ${PENDING}`,
    [model],
  );
  let done = 0;
  let after: string | null = null;
  for (;;) {
    const batch: { id: string; index_text: string }[] = await dataSource.query(
      `SELECT id, index_text FROM chunks
       WHERE ${PENDING} AND ($2::uuid IS NULL OR id > $2::uuid)
       ORDER BY id LIMIT $3`,
      [model, after, batchSize],
    );
    if (batch.length === 0) break;
    const vectors = await embedder.embed(batch.map((row) => row.index_text));
    await dataSource.query(
      `UPDATE chunks c SET embedding = t.v::vector, embedding_model = $3
       FROM unnest($1::uuid[], $2::text[]) AS t(id, v) WHERE c.id = t.id`,
      [batch.map((row) => row.id), vectors.map(toVectorLiteral), model],
    );
    done += batch.length;
    after = batch[batch.length - 1].id;
    await report(done, Math.max(total, done));
  }
  return done;
}

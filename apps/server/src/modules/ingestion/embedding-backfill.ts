import type { EmbeddingProvider } from '@lumina/rag';
import type { DataSource } from 'typeorm';
import { ChunkRepository } from './repositories/chunk.repository';

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
  const chunks = new ChunkRepository(dataSource.manager);
  const model = embedder.modelId;
  const total = await chunks.countPendingEmbeddings(model);
  let done = 0;
  let after: string | null = null;
  for (;;) {
    const batch = await chunks.pendingEmbeddings(model, after, batchSize);
    if (batch.length === 0) break;
    const vectors = await embedder.embed(batch.map((row) => row.index_text));
    await chunks.storeEmbeddings(
      batch.map((row) => row.id),
      vectors,
      model,
    );
    done += batch.length;
    after = batch[batch.length - 1].id;
    await report(done, Math.max(total, done));
  }
  return done;
}

import { createHash } from 'node:crypto';
import type { BeirDataset } from '@lumina/eval';
import type { ChunkingSettings, TextFormat } from '@lumina/rag';
import type { DataSource } from 'typeorm';
import type { CachedEmbedder } from '../providers/cached-embedder';
import { backfillEmbeddings } from '../modules/ingestion/embedding-backfill';
import { IndexingService } from '../modules/ingestion/indexing.service';

export interface BeirIndexOutcome {
  documentsAdded: number;
  chunksWritten: number;
  vectorsBackfilled: number;
  seconds: number;
}

/**
 * Load a BEIR corpus into the database through the app's own indexing code: one document per corpus
 * entry (external id = corpus id), chunked and stored exactly as uploads are. Documents already there
 * are kept; chunks without a vector get one when `embedder` is given (through the embedding cache).
 */
export async function indexBeirCorpus(
  dataSource: DataSource,
  dataset: BeirDataset,
  datasetName: string,
  chunking: ChunkingSettings,
  embedder: CachedEmbedder | null,
  onProgress: (stage: string) => (done: number, total: number) => void,
  /** How the texts are chunked: BEIR abstracts are plain text; a docs set is Markdown. */
  format: TextFormat = 'plain',
): Promise<BeirIndexOutcome> {
  const started = Date.now();
  const existing: { external_id: string; chunking: unknown }[] = await dataSource.query(
    `SELECT external_id, metadata->'chunking' AS chunking FROM documents
     WHERE metadata->>'dataset' = $1 AND status = 'indexed'`,
    [datasetName],
  );
  const mismatched = existing.find((row) => JSON.stringify(row.chunking) !== JSON.stringify(chunking));
  if (mismatched) {
    throw new Error(
      `This database already holds ${datasetName} indexed with chunking ${JSON.stringify(mismatched.chunking)}; ` +
        `asked for ${JSON.stringify(chunking)}. Use another --db-dir.`,
    );
  }
  const have = new Set(existing.map((row) => row.external_id));
  const missing = [...dataset.corpus.values()].filter((doc) => !have.has(doc.id));

  let chunksWritten = 0;
  if (missing.length > 0) {
    // Vectors are added afterwards in one backfill pass, which batches the embedder better.
    const indexing = new IndexingService(dataSource, null, chunking);
    const report = onProgress('indexing  ');
    const batchSize = 250;
    for (let i = 0; i < missing.length; i += batchSize) {
      const batch = missing.slice(i, i + batchSize);
      const rows: { id: string; external_id: string }[] = await dataSource.query(
        `INSERT INTO documents (title, content_hash, external_id, status, byte_size, metadata, mime_type)
         SELECT t.title, t.hash, t.external_id, 'chunking', t.size, $5::jsonb, $6
         FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS t(title, hash, external_id, size)
         ON CONFLICT (content_hash) DO UPDATE SET status = 'chunking'
         RETURNING id, external_id`,
        [
          batch.map((doc) => doc.title),
          batch.map((doc) => contentHash(datasetName, doc.id, doc.title, doc.text)),
          batch.map((doc) => doc.id),
          batch.map((doc) => Buffer.byteLength(doc.text)),
          JSON.stringify({ dataset: datasetName, chunking }),
          format === 'markdown' ? 'text/markdown' : 'text/plain',
        ],
      );
      const idByExternal = new Map(rows.map((row) => [row.external_id, row.id]));
      const outcome = await indexing.indexDocuments(
        batch.map((doc) => ({
          documentId: idByExternal.get(doc.id)!,
          title: doc.title,
          text: doc.text,
          format,
        })),
      );
      chunksWritten += outcome.chunks;
      report(Math.min(i + batchSize, missing.length), missing.length);
    }
  }

  let vectorsBackfilled = 0;
  if (embedder) vectorsBackfilled = await backfillEmbeddings(dataSource, embedder, onProgress('embedding '));
  return {
    documentsAdded: missing.length,
    chunksWritten,
    vectorsBackfilled,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
}

function contentHash(dataset: string, id: string, title: string, text: string): string {
  return createHash('sha256')
    .update(`beir\u0000${dataset}\u0000${id}\u0000${title}\u0000${text}`)
    .digest('hex');
}

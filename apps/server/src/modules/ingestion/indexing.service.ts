import { textSearchConfig } from '@lumina/rag';
import type { ChunkingSettings, EmbeddingProvider, IndexableDocument, LanguageDetector } from '@lumina/rag';
import type { DataSource, EntityManager } from 'typeorm';
import { loadLanguageDetector } from '../../providers/eld-language-detector';
import { textSearchConfigs } from '../rag/repositories/text-search-configs';
import { toVectorLiteral } from '../../database/pgvector';
import { analyseDocument } from './chunk-analysis';
import type { AnalysedChunk } from './chunk-analysis';

export interface IndexingProgress {
  stage: 'chunking' | 'embedding' | 'writing';
  done: number;
  total: number;
}

export interface IndexingOutcome {
  documents: number;
  chunks: number;
}

/**
 * Chunks, embeds and stores documents. The chunks of a batch of documents replace any earlier ones in
 * ONE transaction, so a retry after a crash leaves no duplicates; BM25 statistics follow through the
 * triggers in the same transaction. Used by the ingestion jobs and by the eval CLI alike.
 */
export class IndexingService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly embedder: EmbeddingProvider | null,
    private readonly chunking: ChunkingSettings,
    private readonly embedBatchSize = 64,
    /** Names each document's language unless the upload gave one (default: the app's detector). */
    private languageDetector: LanguageDetector | null = null,
  ) {}

  get embeddingModel(): string | null {
    return this.embedder?.modelId ?? null;
  }

  /**
   * `onProgress` hears 'chunking' once, 'embedding' before the first batch (done 0) and after each one,
   * and 'writing' after the commit; it is awaited, so it can stop the work by throwing. `signal` is
   * passed to the embedder and checked between batches.
   */
  async indexDocuments(
    documents: IndexableDocument[],
    onProgress?: (progress: IndexingProgress) => void | Promise<void>,
    options: { signal?: AbortSignal } = {},
  ): Promise<IndexingOutcome> {
    this.languageDetector ??= await loadLanguageDetector();
    const analysed = documents.map((document) => ({
      documentId: document.documentId,
      ...analyseDocument(document, this.chunking, this.languageDetector!),
    }));
    await onProgress?.({ stage: 'chunking', done: documents.length, total: documents.length });
    return this.indexChunks(
      analysed.map(({ documentId, language }) => ({ documentId, language })),
      analysed.flatMap((entry) => entry.chunks),
      onProgress,
      options,
    );
  }

  /**
   * Embeds and stores chunks analysed elsewhere (the ingestion jobs chunk on a worker thread): they
   * replace every earlier chunk of the documents in one transaction, each document analysed with the
   * text-search configuration of its language. `onProgress` hears 'embedding' and 'writing'.
   */
  async indexChunks(
    documents: { documentId: string; language: string | null }[],
    chunks: AnalysedChunk[],
    onProgress?: (progress: IndexingProgress) => void | Promise<void>,
    options: { signal?: AbortSignal } = {},
  ): Promise<IndexingOutcome> {
    const available = await textSearchConfigs(this.dataSource);
    const configOf = new Map(documents.map((d) => [d.documentId, textSearchConfig(d.language, available)]));
    const vectors: (number[] | null)[] = [];
    if (this.embedder) {
      await onProgress?.({ stage: 'embedding', done: 0, total: chunks.length });
      for (let i = 0; i < chunks.length; i += this.embedBatchSize) {
        options.signal?.throwIfAborted();
        const batch = chunks.slice(i, i + this.embedBatchSize);
        vectors.push(
          ...(await this.embedder.embed(
            batch.map((chunk) => chunk.indexText),
            options.signal,
          )),
        );
        await onProgress?.({ stage: 'embedding', done: vectors.length, total: chunks.length });
      }
    } else {
      vectors.push(...chunks.map(() => null));
    }

    options.signal?.throwIfAborted();
    const ids = documents.map((d) => d.documentId);
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`DELETE FROM chunks WHERE document_id = ANY($1::uuid[])`, [ids]);
      for (let i = 0; i < chunks.length; i += 500) {
        await insertChunks(
          manager,
          chunks.slice(i, i + 500),
          vectors.slice(i, i + 500),
          this.embeddingModel,
          configOf,
        );
      }
      await manager.query(
        `UPDATE documents d SET chunk_count = coalesce(c.n, 0), status = 'indexed', error = NULL, updated_at = now(),
                language = ids.language, text_config = ids.text_config
         FROM unnest($1::uuid[], $2::text[], $3::text[]) AS ids(id, language, text_config)
         LEFT JOIN (SELECT document_id, count(*)::int AS n FROM chunks WHERE document_id = ANY($1::uuid[])
                    GROUP BY document_id) c ON c.document_id = ids.id
         WHERE d.id = ids.id`,
        [ids, documents.map((d) => d.language), ids.map((id) => configOf.get(id)!)],
      );
    });
    await onProgress?.({ stage: 'writing', done: chunks.length, total: chunks.length });
    return { documents: documents.length, chunks: chunks.length };
  }
}

async function insertChunks(
  manager: EntityManager,
  chunks: AnalysedChunk[],
  vectors: (number[] | null)[],
  model: string | null,
  configOf: ReadonlyMap<string, string>,
): Promise<void> {
  if (chunks.length === 0) return;
  await manager.query(
    `INSERT INTO chunks (document_id, ordinal, text, index_text, heading_path, anchor, span_start, span_end,
                         embedding, embedding_model, page_start, page_end, text_config, lexical_text)
     SELECT t.document_id, t.ordinal, t.text, t.index_text,
            ARRAY(SELECT jsonb_array_elements_text(t.heading_path)), t.anchor, t.span_start, t.span_end,
            t.embedding::vector, CASE WHEN t.embedding IS NULL THEN NULL ELSE $10 END, t.page_start, t.page_end,
            t.text_config::regconfig, t.lexical_text
     FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::int[], $8::int[],
                 $9::text[], $11::int[], $12::int[], $13::text[], $14::text[])
       AS t(document_id, ordinal, text, index_text, heading_path, anchor, span_start, span_end, embedding,
            page_start, page_end, text_config, lexical_text)`,
    [
      chunks.map((c) => c.documentId),
      chunks.map((c) => c.ordinal),
      chunks.map((c) => c.text),
      chunks.map((c) => c.indexText),
      chunks.map((c) => JSON.stringify(c.headingPath)),
      chunks.map((c) => c.anchor),
      chunks.map((c) => c.start),
      chunks.map((c) => c.end),
      vectors.map((v) => (v ? toVectorLiteral(v) : null)),
      model,
      chunks.map((c) => c.pages?.first ?? null),
      chunks.map((c) => c.pages?.last ?? null),
      chunks.map((c) => configOf.get(c.documentId)!),
      chunks.map((c) => c.lexicalText),
    ],
  );
}

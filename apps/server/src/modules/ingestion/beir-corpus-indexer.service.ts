import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { BeirDataset } from '@lumina/eval';
import type { ChunkingSettings, EmbeddingProvider, TextFormat } from '@lumina/rag';
import { DataSource } from 'typeorm';
import { InjectConfig } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import { backfillEmbeddings } from './embedding-backfill';
import { IndexingService } from './indexing.service';
import { BeirCorpusRepository } from './repositories/beir-corpus.repository';

export interface BeirIndexOutcome {
  documentsAdded: number;
  chunksWritten: number;
  vectorsBackfilled: number;
  seconds: number;
  /** How many documents of the database hold each language once the corpus is in. */
  languages: Record<string, number>;
}

/** Progress of one stage ('indexing  ', 'embedding '): done of total. */
export type StageProgress = (stage: string) => (done: number, total: number) => void;

/**
 * Loads a BEIR corpus into the database through the app's own indexing code: one document per corpus
 * entry (external id = corpus id), chunked and stored exactly as uploads are, in one collection (the
 * default one unless named). Documents already there are kept; chunks without a vector get one when `embedder` is given (through the embedding cache).
 */
@Injectable()
export class BeirCorpusIndexer {
  constructor(
    private readonly documents: BeirCorpusRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectConfig() private readonly env: Env,
  ) {}

  async index(
    dataset: Pick<BeirDataset, 'corpus'>,
    datasetName: string,
    chunking: ChunkingSettings,
    embedder: EmbeddingProvider | null,
    onProgress: StageProgress,
    /** How the texts are chunked: BEIR abstracts are plain text; a docs set is Markdown. */
    format: TextFormat = 'plain',
    /** The collection the corpus goes into; null: the collection whose slug is "default". */
    collectionId: string | null = null,
  ): Promise<BeirIndexOutcome> {
    const started = Date.now();
    const existing = await this.documents.indexed(datasetName, collectionId);
    const mismatched = existing.find((row) => JSON.stringify(row.chunking) !== JSON.stringify(chunking));
    if (mismatched) {
      throw new Error(
        `This database already holds ${datasetName} indexed with chunking ${JSON.stringify(mismatched.chunking)}; ` +
          `asked for ${JSON.stringify(chunking)}. Use another --db-dir.`,
      );
    }
    const have = new Set(existing.map((row) => row.externalId));
    const missing = [...dataset.corpus.values()].filter((doc) => !have.has(doc.id));

    let chunksWritten = 0;
    // Vectors are added afterwards in one backfill pass, which batches the embedder better.
    const indexing = new IndexingService(
      this.dataSource,
      null,
      chunking,
      undefined,
      null,
      this.env.DEFAULT_LANGUAGE ?? null,
    );
    if (missing.length > 0) {
      const report = onProgress('indexing  ');
      const batchSize = 250;
      for (let i = 0; i < missing.length; i += batchSize) {
        const batch = missing.slice(i, i + batchSize);
        const idByExternal = await this.documents.insertForChunking(
          batch.map((doc) => ({
            title: doc.title,
            contentHash: contentHash(datasetName, doc.id, doc.title, doc.text),
            externalId: doc.id,
            byteSize: Buffer.byteLength(doc.text),
          })),
          { dataset: datasetName, chunking },
          format === 'markdown' ? 'text/markdown' : 'text/plain',
          collectionId,
        );
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
    if (embedder) {
      vectorsBackfilled = await backfillEmbeddings(this.dataSource, embedder, onProgress('embedding '));
    }
    return {
      documentsAdded: missing.length,
      chunksWritten,
      vectorsBackfilled,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      languages: await indexing.languageCounts(),
    };
  }
}

function contentHash(dataset: string, id: string, title: string, text: string): string {
  return createHash('sha256')
    .update(`beir\u0000${dataset}\u0000${id}\u0000${title}\u0000${text}`)
    .digest('hex');
}

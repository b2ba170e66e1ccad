import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { INDEXED_DATASET_DOCUMENTS_SQL, INSERT_DATASET_DOCUMENTS_SQL } from './beir-corpus.sql';

/** A dataset entry on its way to becoming a document. */
export interface DatasetDocumentRow {
  title: string;
  contentHash: string;
  externalId: string;
  byteSize: number;
}

/** The documents a dataset (BEIR corpus, docs gold set) is loaded as, by external id. */
@Injectable()
export class BeirCorpusRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The dataset's indexed documents in the collection (null: the default one): external id and the
   * chunking they were indexed with.
   */
  async indexed(
    dataset: string,
    collectionId: string | null = null,
  ): Promise<{ externalId: string; chunking: unknown }[]> {
    const rows: { external_id: string; chunking: unknown }[] = await this.dataSource.query(
      INDEXED_DATASET_DOCUMENTS_SQL,
      [dataset, collectionId],
    );
    return rows.map((row) => ({ externalId: row.external_id, chunking: row.chunking }));
  }

  /**
   * Inserts the rows as documents to chunk into the collection (null: the default one); returns each
   * one's document id by external id.
   */
  async insertForChunking(
    rows: DatasetDocumentRow[],
    metadata: Record<string, unknown>,
    mimeType: string,
    collectionId: string | null = null,
  ): Promise<Map<string, string>> {
    const inserted: { id: string; external_id: string }[] = await this.dataSource.query(
      INSERT_DATASET_DOCUMENTS_SQL,
      [
        rows.map((row) => row.title),
        rows.map((row) => row.contentHash),
        rows.map((row) => row.externalId),
        rows.map((row) => row.byteSize),
        JSON.stringify(metadata),
        mimeType,
        collectionId,
      ],
    );
    return new Map(inserted.map((row) => [row.external_id, row.id]));
  }
}

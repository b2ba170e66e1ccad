import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { COLLECTION_STATS_SQL } from './collection-stats.sql';

/** A collection's sizes at scrape time. */
export interface CollectionStats {
  id: string;
  slug: string;
  deleting: boolean;
  /** Document count by status (indexed, queued, failed, …). */
  documents: Record<string, number>;
  chunks: number;
}

/** What GET /metrics reads of each collection. */
@Injectable()
export class CollectionStatsRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  async all(): Promise<CollectionStats[]> {
    const rows: (Omit<CollectionStats, 'chunks'> & { chunks: string | number })[] =
      await this.manager.query(COLLECTION_STATS_SQL);
    return rows.map((row) => ({ ...row, chunks: Number(row.chunks) }));
  }
}

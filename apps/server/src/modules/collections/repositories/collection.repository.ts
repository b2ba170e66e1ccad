import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import {
  COLLECTION_BY_SLUG_SQL,
  COLLECTION_STATE_SQL,
  SEARCHABLE_AMONG_SQL,
  COLLECTION_STATES_SQL,
} from './collections.sql';

/** Whether a collection exists, and whether a deletion job is removing it. */
export interface CollectionState {
  id: string;
  deleting: boolean;
}

/** The collections table. */
@Injectable()
export class CollectionRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  /** Every collection, oldest first. */
  states(): Promise<CollectionState[]> {
    return this.manager.query(COLLECTION_STATES_SQL);
  }

  /** Of `ids`, those that exist and are not being deleted. */
  async searchableAmong(ids: readonly string[]): Promise<Set<string>> {
    const rows: { id: string }[] = await this.manager.query(SEARCHABLE_AMONG_SQL, [ids]);
    return new Set(rows.map((row) => row.id));
  }

  async state(id: string): Promise<CollectionState | null> {
    const rows: CollectionState[] = await this.manager.query(COLLECTION_STATE_SQL, [id]);
    return rows[0] ?? null;
  }

  async stateBySlug(slug: string): Promise<CollectionState | null> {
    const rows: CollectionState[] = await this.manager.query(COLLECTION_BY_SLUG_SQL, [slug]);
    return rows[0] ?? null;
  }
}

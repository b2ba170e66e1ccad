import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import {
  COLLECTION_BY_SLUG_SQL,
  COLLECTION_PAGE_SQL,
  COLLECTION_STATE_SQL,
  COLLECTION_VIEW_SQL,
  COUNT_COLLECTIONS_SQL,
  INSERT_COLLECTION_SQL,
  MARK_DELETING_SQL,
  SLUG_TAKEN_SQL,
  COLLECTION_STATES_SQL,
  STRANDED_DELETIONS_SQL,
  UNMARK_DELETING_SQL,
  UPDATE_COLLECTION_SQL,
} from './collections.sql';

/** Whether a collection exists, and whether a deletion job is removing it. */
export interface CollectionState {
  id: string;
  deleting: boolean;
}

/** A collection as the API shows it, with its counts. */
export interface CollectionRow {
  id: string;
  name: string;
  slug: string;
  description: string;
  deleting: boolean;
  document_count: number;
  chunk_count: number;
  bank_count: number;
  created_at: Date;
  updated_at: Date;
}

/** What a PATCH changes; absent: unchanged. */
export interface CollectionChange {
  name?: string;
  slug?: string;
  description?: string;
}

/** The collections table. */
@Injectable()
export class CollectionRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  /** Every collection, oldest first. */
  states(): Promise<CollectionState[]> {
    return this.manager.query(COLLECTION_STATES_SQL);
  }

  async state(id: string): Promise<CollectionState | null> {
    const rows: CollectionState[] = await this.manager.query(COLLECTION_STATE_SQL, [id]);
    return rows[0] ?? null;
  }

  async stateBySlug(slug: string): Promise<CollectionState | null> {
    const rows: CollectionState[] = await this.manager.query(COLLECTION_BY_SLUG_SQL, [slug]);
    return rows[0] ?? null;
  }

  /** `search`: an ILIKE pattern on the name (null: any). */
  /** `readable`: the collections the caller may read (null: every one). */
  async count(search: string | null, readable: readonly string[] | null): Promise<number> {
    const [{ total }]: { total: number }[] = await this.manager.query(COUNT_COLLECTIONS_SQL, [
      search,
      readable,
    ]);
    return total;
  }

  /** The collections `count` counts, oldest first. */
  page(
    search: string | null,
    readable: readonly string[] | null,
    offset: number,
    limit: number,
  ): Promise<CollectionRow[]> {
    return this.manager.query(COLLECTION_PAGE_SQL, [search, readable, limit, offset]);
  }

  async find(id: string): Promise<CollectionRow | null> {
    const rows: CollectionRow[] = await this.manager.query(COLLECTION_VIEW_SQL, [id]);
    return rows[0] ?? null;
  }

  /** Inserts a collection; null when its slug is taken. */
  async insert(name: string, slug: string, description: string): Promise<string | null> {
    const rows: { id: string }[] = await this.manager.query(INSERT_COLLECTION_SQL, [name, slug, description]);
    return rows[0]?.id ?? null;
  }

  /** Whether a collection other than `id` has the slug. */
  async slugTaken(id: string, slug: string): Promise<boolean> {
    const [{ taken }]: { taken: boolean }[] = await this.manager.query(SLUG_TAKEN_SQL, [id, slug]);
    return taken;
  }

  /** Applies the change unless the collection is being deleted; false when nothing was updated. */
  async update(id: string, change: CollectionChange): Promise<boolean> {
    const [rows]: [unknown[], number] = await this.manager.query(UPDATE_COLLECTION_SQL, [
      id,
      change.name ?? null,
      change.slug ?? null,
      change.description ?? null,
    ]);
    return rows.length > 0;
  }

  /** Marks the collection as being deleted; false when it does not exist or already is. */
  async markDeleting(id: string): Promise<boolean> {
    const [rows]: [unknown[], number] = await this.manager.query(MARK_DELETING_SQL, [id]);
    return rows.length > 0;
  }

  async unmarkDeleting(id: string): Promise<void> {
    await this.manager.query(UNMARK_DELETING_SQL, [id]);
  }

  /** Collections marked for deletion at least `graceMs` ago, oldest first. */
  async strandedDeletions(graceMs: number, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.manager.query(STRANDED_DELETIONS_SQL, [graceMs, limit]);
    return rows.map((row) => row.id);
  }
}

/** Whether a database error is the unique violation of a collection's slug. */
export function isSlugTaken(error: unknown): boolean {
  const failure = error as {
    code?: string;
    constraint?: string;
    message?: string;
    driverError?: { code?: string; constraint?: string };
  };
  const code = failure.code ?? failure.driverError?.code;
  const constraint = failure.constraint ?? failure.driverError?.constraint ?? failure.message ?? '';
  return code === '23505' && constraint.includes('collections_slug_key');
}

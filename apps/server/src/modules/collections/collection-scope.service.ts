import { Injectable } from '@nestjs/common';
import { DEFAULT_COLLECTION_SLUG } from '../../database/migrations/1764500140000-collections';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';
import { CollectionRepository } from './repositories/collection.repository';

/** The collections a search reads. */
export interface SearchScope {
  /** The collections searched, as the answer and the trace report them. */
  collectionIds: string[];
  /**
   * What the index reads are limited to: the same ids, or null when they are every collection there is
   * (no filter at all, so a single-library installation searches exactly as before collections).
   */
  filter: string[] | null;
}

/**
 * Which collections a request reads or writes. A collection that does not exist and one the caller may
 * not read get the same 404, so names and ids do not leak.
 */
@Injectable()
export class CollectionScope {
  constructor(private readonly collections: CollectionRepository) {}

  /**
   * The collections a search or a chat reads: `requested` (each must exist and be readable), or every
   * readable collection when absent. Collections being deleted are not searched.
   */
  async searchable(requested?: readonly string[]): Promise<SearchScope> {
    const states = await this.collections.states();
    const live = new Set(states.filter((state) => !state.deleting).map((state) => state.id));
    const ids = requested ? [...new Set(requested)] : [...live];
    const missing = ids.find((id) => !live.has(id));
    if (missing) throw new NotFoundError(`No collection has the id ${missing}.`);
    return { collectionIds: ids, filter: ids.length === states.length ? null : ids };
  }

  /**
   * The collections a conversation's follow-up reads: those it searched that still exist (a deleted
   * collection drops out); when none is left, the caller must name collections.
   */
  async stillSearchable(remembered: readonly string[]): Promise<SearchScope> {
    const live = await this.collections.searchableAmong(remembered);
    const ids = remembered.filter((id) => live.has(id));
    if (ids.length === 0) {
      throw new InvalidRequestError(
        "Every collection this conversation searched has been deleted: name the collections to search (collectionIds).",
      );
    }
    return this.searchable(ids);
  }

  /**
   * The collection a new document goes into: `collectionId`, or the collection whose slug is
   * "default" when absent. 404 when it does not exist, 409 while it is being deleted.
   */
  async writable(collectionId?: string): Promise<string> {
    const state = collectionId
      ? await this.collections.state(collectionId)
      : await this.collections.stateBySlug(DEFAULT_COLLECTION_SLUG);
    if (!state) {
      if (collectionId) throw new NotFoundError(`No collection has the id ${collectionId}.`);
      throw new InvalidRequestError(
        'There is no default collection any more: name the collection to store the documents in (collectionId).',
      );
    }
    if (state.deleting) {
      throw new ConflictError(`Collection ${state.id} is being deleted; it takes no new documents.`);
    }
    return state.id;
  }
}

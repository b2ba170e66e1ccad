import { Injectable } from '@nestjs/common';
import { DEFAULT_COLLECTION_SLUG } from '../../database/migrations/1764500140000-collections';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';
import { CollectionRepository } from './repositories/collection.repository';

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
  async searchable(requested?: readonly string[]): Promise<string[]> {
    if (!requested) return this.collections.searchableIds();
    const unique = [...new Set(requested)];
    const found = await this.collections.searchableAmong(unique);
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length > 0) throw new NotFoundError(`No collection has the id ${missing[0]}.`);
    return unique;
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

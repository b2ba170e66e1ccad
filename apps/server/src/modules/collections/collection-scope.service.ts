import { Injectable } from '@nestjs/common';
import { DEFAULT_COLLECTION_SLUG } from '../../database/migrations/1764500140000-collections';
import {
  ConflictError,
  ForbiddenError,
  InvalidRequestError,
  NotFoundError,
} from '../../common/errors/domain-errors';
import { canRead, canWrite } from '../auth/principal';
import type { CollectionAccess } from '../auth/principal';
import { CollectionRepository } from './repositories/collection.repository';
import type { CollectionState } from './repositories/collection.repository';

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
 * Which collections a request reads or writes, decided once from the caller's access (an admin key
 * reaches every collection, a user key those its grants name). A collection that does not exist and one
 * the caller may not read get the same 404, so names and ids do not leak.
 */
@Injectable()
export class CollectionScope {
  constructor(private readonly collections: CollectionRepository) {}

  /**
   * The collections a search or a chat reads: `requested` (each must exist and be readable), or every
   * readable collection when absent. Collections being deleted are not searched.
   */
  async searchable(access: CollectionAccess, requested?: readonly string[]): Promise<SearchScope> {
    const states = await this.collections.states();
    const live = liveFor(access, states);
    const ids = requested ? [...new Set(requested)] : [...live];
    const missing = ids.find((id) => !live.has(id));
    if (missing) throw notFound(missing);
    return { collectionIds: ids, filter: ids.length === states.length ? null : ids };
  }

  /**
   * The collections a conversation's follow-up reads: those it searched that still exist and are still
   * readable (one deleted, or no longer granted, drops out); when none is left, the caller must name some.
   * A conversation that could search none (a key without grants) searches what the key reads now.
   */
  async stillSearchable(access: CollectionAccess, remembered: readonly string[]): Promise<SearchScope> {
    if (remembered.length === 0) return this.searchable(access);
    const states = await this.collections.states();
    const live = liveFor(access, states);
    const ids = [...new Set(remembered.filter((id) => live.has(id)))];
    if (ids.length === 0) {
      throw new InvalidRequestError(
        'None of the collections this conversation searched can be searched any more: name the collections to search (collectionIds).',
      );
    }
    return { collectionIds: ids, filter: ids.length === states.length ? null : ids };
  }

  /**
   * The collection a new document (or question bank: `what`) goes into: `collectionId`, or the collection
   * whose slug is "default" when absent. 404 when it does not exist or the caller may not read it, 403
   * when it may read but not write it, 409 while it is being deleted.
   */
  async writable(access: CollectionAccess, collectionId?: string, what = 'documents'): Promise<string> {
    const state = await this.target(access, collectionId, what);
    this.assertWrite(access, state);
    return state.id;
  }

  /** 404 unless the caller may read collection `id` (and it exists). */
  async assertReadable(access: CollectionAccess, id: string): Promise<void> {
    const state = await this.collections.state(id);
    if (!state || !canRead(access, id)) throw notFound(id);
  }

  /**
   * 404 unless the caller may read collection `id`, 403 unless it may change it (deleting a document of
   * a collection being deleted is allowed: the deletion would remove it anyway).
   */
  async assertMayChange(access: CollectionAccess, id: string): Promise<void> {
    if (!canRead(access, id)) throw notFound(id);
    if (!canWrite(access, id)) throw readOnly(id);
  }

  /** The named collection, or the default one when none is named and the caller reads it. */
  private async target(
    access: CollectionAccess,
    collectionId: string | undefined,
    what: string,
  ): Promise<CollectionState> {
    if (collectionId) {
      const state = await this.collections.state(collectionId);
      if (!state) throw notFound(collectionId);
      return state;
    }
    const state = await this.collections.stateBySlug(DEFAULT_COLLECTION_SLUG);
    if (state && canRead(access, state.id)) return state;
    if (!access.all && access.write.size === 0) {
      throw new ForbiddenError(
        `This key may not add ${what}: it has no write grant on any collection (an admin grants them).`,
      );
    }
    throw new InvalidRequestError(
      `Name the collection to store the ${what} in (collectionId): ` +
        (state ? 'this key has no default collection.' : 'there is no default collection any more.'),
    );
  }

  private assertWrite(access: CollectionAccess, state: CollectionState): void {
    if (!canRead(access, state.id)) throw notFound(state.id);
    if (!canWrite(access, state.id)) throw readOnly(state.id);
    if (state.deleting) {
      throw new ConflictError(`Collection ${state.id} is being deleted; it takes no new documents.`);
    }
  }
}

/** The collections the caller reads that are not being deleted. */
function liveFor(access: CollectionAccess, states: readonly CollectionState[]): Set<string> {
  return new Set(states.filter((state) => !state.deleting && canRead(access, state.id)).map((s) => s.id));
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`No collection has the id ${id}.`);
}

function readOnly(id: string): ForbiddenError {
  return new ForbiddenError(
    `This key may read collection ${id} but not change it: it needs a write grant on it.`,
  );
}

import { Injectable } from '@nestjs/common';
import { slugFromName } from '@lumina/shared';
import type {
  Collection,
  CollectionDeletion,
  CollectionInput,
  CollectionPatch,
  ListCollectionsQuery,
  Page,
} from '@lumina/shared';
import { ConflictError, NotFoundError } from '../../common/errors/domain-errors';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import { IngestionQueue } from '../ingestion/ingestion-queue.service';
import { CollectionRepository, isSlugTaken } from './repositories/collection.repository';
import type { CollectionRow } from './repositories/collection.repository';
import { ALL_COLLECTIONS, canRead, readableIds } from '../auth/principal';
import type { CollectionAccess } from '../auth/principal';

/**
 * Collections: paginated lists, CRUD, and deletion. A deletion marks the collection at once (it takes no
 * new documents, is searched no more and cannot be changed) and queues the job that removes it with
 * everything in it.
 */
@Injectable()
export class CollectionService {
  constructor(
    private readonly collections: CollectionRepository,
    private readonly queue: IngestionQueue,
  ) {}

  /** The collections the caller may read (a user key: those it is granted). */
  async list(query: ListCollectionsQuery, access: CollectionAccess): Promise<Page<Collection>> {
    const window = pageWindow(query);
    const words = query.search?.trim();
    const search = words ? `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const readable = readableIds(access);
    const total = await this.collections.count(search, readable);
    const rows = await this.collections.page(search, readable, window.offset, window.limit);
    return pageOf(rows.map(toCollection), total, window);
  }

  /** 404 when it does not exist or the caller may not read it. */
  async get(id: string, access: CollectionAccess): Promise<Collection> {
    const row = await this.collections.find(id);
    if (!row || !canRead(access, id)) throw new NotFoundError(`No collection has the id ${id}.`);
    return toCollection(row);
  }

  /** A new collection; its slug is made from its name when none is given. 409 when the slug is taken. */
  async create(input: CollectionInput): Promise<Collection> {
    const slug = input.slug ?? slugFromName(input.name);
    const id = await this.collections.insert(input.name, slug, input.description ?? '');
    if (!id) throw slugTaken(slug, input.slug === undefined);
    return this.get(id, ALL_COLLECTIONS);
  }

  /** Renames, re-slugs or describes a collection; 409 while it is being deleted or when the slug is taken. */
  async update(id: string, patch: CollectionPatch): Promise<Collection> {
    if (patch.slug && (await this.collections.slugTaken(id, patch.slug))) throw slugTaken(patch.slug, false);
    let updated: boolean;
    try {
      updated = await this.collections.update(id, patch);
    } catch (error) {
      // Taken by another collection between the check and the update.
      if (isSlugTaken(error) && patch.slug) throw slugTaken(patch.slug, false);
      throw error;
    }
    if (!updated) {
      await this.assertNotDeleting(id, `Collection ${id} is being deleted; it can no longer be changed.`);
      throw new NotFoundError(`No collection has the id ${id}.`);
    }
    return this.get(id, ALL_COLLECTIONS);
  }

  /**
   * Marks the collection as being deleted and queues the job that removes it. 404 when there is none,
   * 409 when it is already being deleted; Redis unreachable: 503, and the collection stays as it was.
   */
  async requestDeletion(id: string): Promise<CollectionDeletion> {
    if (!(await this.collections.markDeleting(id))) {
      await this.assertNotDeleting(id, `Collection ${id} is already being deleted.`);
      throw new NotFoundError(`No collection has the id ${id}.`);
    }
    try {
      const jobId = await this.queue.enqueueCollectionDeletion(id);
      return { id, deleting: true, jobId };
    } catch (error) {
      await this.collections.unmarkDeleting(id);
      throw error;
    }
  }

  /** 409 (saying `message`) when the collection exists and is being deleted. */
  private async assertNotDeleting(id: string, message: string): Promise<void> {
    const state = await this.collections.state(id);
    if (state?.deleting) throw new ConflictError(message);
  }
}

function slugTaken(slug: string, madeFromName: boolean): ConflictError {
  return new ConflictError(
    madeFromName
      ? `Another collection already has the slug "${slug}" (made from the name); give this one another name or its own slug.`
      : `Another collection already has the slug "${slug}"; choose another slug.`,
  );
}

function toCollection(row: CollectionRow): Collection {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    documentCount: row.document_count,
    chunkCount: row.chunk_count,
    bankCount: row.bank_count,
    deleting: row.deleting,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

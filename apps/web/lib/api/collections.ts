/** Collections (knowledge bases): list, open, create, rename or describe, and delete. */
import { collectionDeletionSchema, collectionSchema, pageOf } from '@lumina/shared';
import type {
  Collection,
  CollectionDeletion,
  CollectionInput,
  CollectionPatch,
  ListCollectionsQuery,
  Page,
} from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import { parsedBy } from './read';
import { queryOf, type RequestOptions, type Transport } from './transport';

const collection = parsedBy(collectionSchema);
const collectionPage = parsedBy(pageOf(collectionSchema));
const deletion = parsedBy(collectionDeletionSchema);

export function collectionsApi(http: Transport) {
  const ops = API_OPERATIONS;
  return {
    /** GET /collections: a page, oldest first; with `search`, those whose name has the words. */
    listCollections(
      query: ListCollectionsQuery = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<Collection>> {
      return http.json(
        ops.listCollections,
        { query: queryOf(query), signal },
        collectionPage,
        'expected a page of collections',
      );
    },

    getCollection(id: string, { signal }: RequestOptions = {}): Promise<Collection> {
      return http.json(ops.getCollection, { params: { id }, signal }, collection, 'expected a collection');
    },

    createCollection(input: CollectionInput, { signal }: RequestOptions = {}): Promise<Collection> {
      return http.json(
        ops.createCollection,
        { body: input, signal },
        collection,
        'expected the new collection',
      );
    },

    updateCollection(
      id: string,
      patch: CollectionPatch,
      { signal }: RequestOptions = {},
    ): Promise<Collection> {
      return http.json(
        ops.updateCollection,
        { params: { id }, body: patch, signal },
        collection,
        'expected the collection',
      );
    },

    /** DELETE /collections/:id (202): a job removes it with everything in it; until then it is `deleting`. */
    deleteCollection(id: string, { signal }: RequestOptions = {}): Promise<CollectionDeletion> {
      return http.json(
        ops.deleteCollection,
        { params: { id }, signal },
        deletion,
        'expected the collection being deleted',
      );
    },
  };
}

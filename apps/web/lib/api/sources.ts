/** Sources kept in sync (admin): folders, Git repositories and websites, their syncs and reports. */
import {
  pageOf,
  sourceDeletionSchema,
  sourceSchema,
  sourceSyncRequestedSchema,
  syncRunSchema,
} from '@lumina/shared';
import type {
  ListSourcesQuery,
  Page,
  PageQuery,
  Source,
  SourceDeletion,
  SourceInput,
  SourcePatch,
  SourceSyncRequested,
  SyncRun,
} from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import { parsedBy } from './read';
import { queryOf, type RequestOptions, type Transport } from './transport';

const source = parsedBy(sourceSchema);
const sourcePage = parsedBy(pageOf(sourceSchema));
const runPage = parsedBy(pageOf(syncRunSchema));
const deletion = parsedBy(sourceDeletionSchema);
const syncRequested = parsedBy(sourceSyncRequestedSchema);

export function sourcesApi(http: Transport) {
  const ops = API_OPERATIONS;
  return {
    listSources(query: ListSourcesQuery = {}, { signal }: RequestOptions = {}): Promise<Page<Source>> {
      return http.json(
        ops.listSources,
        { query: queryOf(query), signal },
        sourcePage,
        'expected a page of sources',
      );
    },

    createSource(input: SourceInput, { signal }: RequestOptions = {}): Promise<Source> {
      return http.json(ops.createSource, { body: input, signal }, source, 'expected the new source');
    },

    updateSource(id: string, patch: SourcePatch, { signal }: RequestOptions = {}): Promise<Source> {
      return http.json(
        ops.updateSource,
        { params: { id }, body: patch, signal },
        source,
        'expected the source',
      );
    },

    /** DELETE /sources/:id; `keepDocuments` keeps what it brought in as uploaded documents. */
    deleteSource(
      id: string,
      keepDocuments: boolean,
      { signal }: RequestOptions = {},
    ): Promise<SourceDeletion> {
      return http.json(
        ops.deleteSource,
        { params: { id }, query: queryOf(keepDocuments ? { keepDocuments: true } : {}), signal },
        deletion,
        'expected the deleted source',
      );
    },

    /** POST /sources/:id/sync (202): a background sync, one per source at a time. */
    syncSource(id: string, { signal }: RequestOptions = {}): Promise<SourceSyncRequested> {
      return http.json(ops.syncSource, { params: { id }, signal }, syncRequested, 'expected the queued sync');
    },

    listSourceRuns(
      id: string,
      query: PageQuery = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<SyncRun>> {
      return http.json(
        ops.listSourceRuns,
        { params: { id }, query: queryOf(query), signal },
        runPage,
        'expected a page of sync reports',
      );
    },
  };
}

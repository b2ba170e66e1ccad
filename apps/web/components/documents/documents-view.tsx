'use client';

import Link from 'next/link';
import type { DocumentView } from '@lumina/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useCapabilities } from '../../hooks/use-capabilities';
import { useCollections } from '../../hooks/use-collections';
import { useDebounced, useResource } from '../../hooks/use-resource';
import { useUrlState } from '../../hooks/use-url-state';
import { pageFromParam } from '../../lib/url-state';
import { isApiError } from '../../lib/api-errors';
import { useApiClient } from '../../hooks/use-api-client';
import { collectionName, defaultUploadCollectionId, writableCollections } from '../../lib/collections';
import { formatBytes, formatDateTime, plural } from '../../lib/format';
import { isTerminal } from '../../lib/ingestion';
import { ingestionStore, watchDocument } from '../../store/ingestion.store';
import { ConfirmButton } from '../ui/confirm-button';
import { DataTable } from '../ui/data-table';
import { ErrorNotice } from '../ui/error-notice';
import { Notice } from '../ui/notice';
import { Pagination } from '../ui/pagination';
import { DocumentStatusCell } from './document-status';
import { UploadDropzone } from './upload-dropzone';
import './documents.css';

const PAGE_SIZE = 20;
const PARALLEL_UPLOADS = 3;

interface UploadEntry {
  key: string;
  filename: string;
  /** The collection it was sent to ('' when the server chose: the default one). */
  collectionId: string;
  phase: 'uploading' | 'accepted' | 'rejected';
  documentId?: string;
  duplicate?: boolean;
  error?: string;
}

let uploadSequence = 0;

/** Runs `work` over `items` with at most `limit` at a time. */
async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export function DocumentsView() {
  const api = useApiClient();
  const capabilities = useCapabilities();
  const [url, setUrl] = useUrlState({ page: '1', q: '', collection: '' });
  const collectionFilter = url.collection;
  const collections = useCollections();
  const known = collections.collections;
  const hasCollections = !collections.missing;
  const [chosenTarget, setChosenTarget] = useState('');
  const writable = writableCollections(known ?? []);
  // The chosen collection while it takes documents, else the "default" one.
  const uploadTarget =
    hasCollections && writable.some((collection) => collection.id === chosenTarget)
      ? chosenTarget
      : hasCollections
        ? defaultUploadCollectionId(known ?? [])
        : '';
  const page = pageFromParam(url.page);
  const setPage = useCallback((next: number) => setUrl({ page: next }), [setUrl]);
  const [search, setSearch] = useState(url.q);
  const query = useDebounced(search.trim(), 300);
  useEffect(() => {
    if (query !== url.q) setUrl({ q: query, page: 1 });
  }, [query, url.q, setUrl]);
  const [uploads, setUploads] = useState<UploadEntry[]>([]);
  const [actionError, setActionError] = useState<string | null>(null);
  const watchers = useRef(new Map<string, () => void>());

  const documents = useResource(`${page}|${query}|${collectionFilter}`, (signal) =>
    api.listDocuments(
      {
        page,
        limit: PAGE_SIZE,
        search: query || undefined,
        collectionId: collectionFilter || undefined,
      },
      { signal },
    ),
  );
  const reload = documents.reload;

  const follow = useCallback(
    (document: Pick<DocumentView, 'id' | 'title' | 'status'>) => {
      if (watchers.current.has(document.id)) return;
      ingestionStore.getState().track(document.id, document.title, document.status);
      if (isTerminal(document.status)) return;
      const stop = watchDocument(api, ingestionStore, document.id, () => {
        watchers.current.delete(document.id);
        reload();
      });
      watchers.current.set(document.id, stop);
    },
    [api, reload],
  );

  // Documents still being ingested (e.g. after a reload) get their progress followed too.
  useEffect(() => {
    for (const document of documents.data?.items ?? []) {
      if (!isTerminal(document.status)) follow(document);
    }
  }, [documents.data, follow]);

  useEffect(() => {
    const active = watchers.current;
    return () => {
      for (const stop of active.values()) stop();
      active.clear();
    };
  }, []);

  const upload = async (files: File[]) => {
    const target = uploadTarget;
    const entries = files.map((file) => {
      uploadSequence += 1;
      return {
        key: `upload-${uploadSequence}`,
        filename: file.name,
        collectionId: target,
        phase: 'uploading' as const,
      };
    });
    setUploads((current) => [...entries, ...current]);
    const patch = (key: string, change: Partial<UploadEntry>) =>
      setUploads((current) => current.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)));

    await inParallel(
      files.map((file, index) => ({ file, key: entries[index].key })),
      PARALLEL_UPLOADS,
      async ({ file, key }) => {
        try {
          const result = await api.uploadDocuments([file], target ? { collectionId: target } : {});
          const [document] = result.documents;
          if (!document) {
            patch(key, { phase: 'rejected', error: 'The server did not accept this file.' });
            return;
          }
          patch(key, { phase: 'accepted', documentId: document.id, duplicate: document.duplicate });
          reload();
          ingestionStore.getState().forget(document.id);
          watchers.current.get(document.id)?.();
          watchers.current.delete(document.id);
          follow({ id: document.id, title: document.title || file.name, status: document.status });
        } catch (error) {
          patch(key, {
            phase: 'rejected',
            error: isApiError(error)
              ? error.message
              : 'The upload failed in the web app. Reload the page and try again.',
          });
        }
      },
    );
    setPage(1);
    reload();
    // The collections' document counts changed.
    if (hasCollections) collections.reload();
  };

  const move = async (document: DocumentView, collectionId: string) => {
    setActionError(null);
    try {
      await api.moveDocument(document.id, collectionId);
      reload();
      collections.reload();
    } catch (error) {
      setActionError(isApiError(error) ? error.message : 'The document could not be moved.');
    }
  };

  const remove = async (document: DocumentView) => {
    setActionError(null);
    try {
      await api.deleteDocument(document.id);
      watchers.current.get(document.id)?.();
      watchers.current.delete(document.id);
      ingestionStore.getState().forget(document.id);
      reload();
    } catch (error) {
      setActionError(isApiError(error) ? error.message : 'The document could not be deleted.');
    }
  };

  const canUpload = capabilities.has('uploadDocuments');
  const canMove = hasCollections && capabilities.has('moveDocument') && writable.length > 1;
  const nameOf = (id: string) => (known ? collectionName(id, known) : '…');
  const sending = uploads.filter((entry) => entry.phase === 'uploading');
  const pageData = documents.data;

  return (
    <section className="page wide-page" aria-labelledby="page-title">
      <h1 id="page-title">Documents</h1>

      {canUpload && hasCollections ? (
        <div className="filters upload-target">
          <div className="field field-inline">
            <label htmlFor="upload-collection">Add to collection</label>
            <select
              id="upload-collection"
              value={uploadTarget}
              disabled={known === null}
              onChange={(event) => setChosenTarget(event.target.value)}
            >
              {known === null ? <option value="">Loading the collections…</option> : null}
              {writable.map((collection) => (
                <option key={collection.id} value={collection.id}>
                  {collection.name}
                </option>
              ))}
            </select>
          </div>
          <Link href="/collections" className="field-hint">
            Manage collections
          </Link>
        </div>
      ) : null}
      {hasCollections && collections.error ? (
        <Notice tone="bad" alert onRetry={collections.reload}>
          {collections.error}
        </Notice>
      ) : null}

      {canUpload ? (
        <UploadDropzone
          onFiles={(files) => void upload(files)}
          busy={uploads.some((entry) => entry.phase === 'uploading')}
        />
      ) : (
        <Notice tone="warn">
          Uploading isn&apos;t available on this server yet (it has no POST /documents).
        </Notice>
      )}

      {uploads.length > 0 ? (
        <section aria-labelledby="uploads-title" className="card">
          <div className="card-head">
            <h2 id="uploads-title">This session&apos;s uploads</h2>
            <button type="button" className="button button-ghost button-small" onClick={() => setUploads([])}>
              Clear
            </button>
          </div>
          <ul className="upload-list">
            {uploads.map((entry) => (
              <li key={entry.key} className="upload" data-phase={entry.phase} data-filename={entry.filename}>
                <span className="upload-name">{entry.filename}</span>
                {entry.collectionId ? (
                  <span className="field-hint"> into {nameOf(entry.collectionId)}</span>
                ) : null}
                {entry.phase === 'uploading' ? <span className="field-hint">Uploading…</span> : null}
                {entry.phase === 'rejected' ? (
                  <p className="status-reason" role="alert">
                    {entry.error}
                  </p>
                ) : null}
                {entry.phase === 'accepted' && entry.documentId ? (
                  <>
                    {entry.duplicate ? (
                      <span className="field-hint">
                        Already uploaded before: this is the existing document.
                      </span>
                    ) : null}
                    <DocumentStatusCell
                      id={entry.documentId}
                      title={entry.filename}
                      status="queued"
                      error={null}
                    />
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="library-title" className="card">
        <div className="card-head">
          <h2 id="library-title">Library</h2>
          <div className="filters">
            {hasCollections ? (
              <div className="field field-inline">
                <label htmlFor="document-collection" className="visually-hidden">
                  Show the documents of one collection
                </label>
                <select
                  id="document-collection"
                  value={collectionFilter}
                  onChange={(event) => setUrl({ collection: event.target.value, page: 1 })}
                >
                  <option value="">All collections</option>
                  {(known ?? []).map((collection) => (
                    <option key={collection.id} value={collection.id}>
                      {collection.name}
                      {collection.deleting ? ' (deleting)' : ''}
                    </option>
                  ))}
                  {collectionFilter && known && !known.some((item) => item.id === collectionFilter) ? (
                    <option value={collectionFilter}>{nameOf(collectionFilter)}</option>
                  ) : null}
                </select>
              </div>
            ) : null}
            <div className="search-field">
              <label htmlFor="document-search" className="visually-hidden">
                Search documents by title
              </label>
              <input
                id="document-search"
                type="search"
                placeholder="Search by title"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
              />
            </div>
          </div>
        </div>

        <ErrorNotice error={actionError} />
        {documents.missing ? (
          <Notice tone="warn">
            The document list isn&apos;t available on this server yet (it has no GET /documents).
          </Notice>
        ) : documents.error ? (
          <Notice tone="bad" alert onRetry={documents.reload}>
            {documents.errorCode === 'invalid_request' && query
              ? `This server can't search documents by title: ${documents.error}`
              : documents.error}
          </Notice>
        ) : null}

        {pageData && pageData.items.length === 0 && !documents.loading ? (
          query ? (
            <p className="empty-state">{`No document title matches "${query}".`}</p>
          ) : collectionFilter ? (
            <p className="empty-state">{`No documents in ${nameOf(collectionFilter)} yet.`}</p>
          ) : sending.length > 0 ? (
            <p className="empty-state" role="status" data-testid="uploads-in-progress">
              Uploading {plural(sending.length, 'file')}: {sending.map((entry) => entry.filename).join(', ')}.
              They are listed here as soon as the server has them.
            </p>
          ) : (
            <p className="empty-state">No documents yet. Drop some files above to add them.</p>
          )
        ) : null}

        {pageData && pageData.items.length > 0 ? (
          <DataTable
            label="Documents"
            busy={documents.loading}
            head={
              <>
                <th scope="col">Title</th>
                {hasCollections ? <th scope="col">Collection</th> : null}
                <th scope="col">Status</th>
                <th scope="col" className="numeric">
                  Passages
                </th>
                <th scope="col" className="hide-narrow">
                  Size
                </th>
                <th scope="col" className="hide-narrow">
                  Added
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </>
            }
          >
            {pageData.items.map((document) => (
              <tr key={document.id} data-document-id={document.id}>
                <td>
                  <Link href={`/documents/${encodeURIComponent(document.id)}`}>{document.title}</Link>
                  {document.sourceName && document.sourceName !== document.title ? (
                    <span className="cell-sub">{document.sourceName}</span>
                  ) : null}
                </td>
                {hasCollections ? (
                  <td data-collection-id={document.collectionId}>{nameOf(document.collectionId)}</td>
                ) : null}
                <td>
                  <DocumentStatusCell
                    id={document.id}
                    title={document.title}
                    status={document.status}
                    error={document.error}
                  />
                </td>
                <td className="numeric">{document.chunkCount}</td>
                <td className="hide-narrow">{formatBytes(document.byteSize)}</td>
                <td className="hide-narrow">{formatDateTime(document.createdAt)}</td>
                <td className="actions">
                  {canMove ? (
                    <select
                      className="move-select"
                      aria-label={`Move ${document.title} to another collection`}
                      value=""
                      onChange={(event) => {
                        if (event.target.value) void move(document, event.target.value);
                      }}
                    >
                      <option value="">Move to…</option>
                      {writable
                        .filter((collection) => collection.id !== document.collectionId)
                        .map((collection) => (
                          <option key={collection.id} value={collection.id}>
                            {collection.name}
                          </option>
                        ))}
                    </select>
                  ) : null}
                  <ConfirmButton
                    label="Delete"
                    accessibleLabel={`Delete ${document.title}`}
                    question={`Delete "${document.title}" and its passages?`}
                    onConfirm={() => remove(document)}
                  />
                </td>
              </tr>
            ))}
          </DataTable>
        ) : null}

        <Pagination label="Documents" data={pageData} disabled={documents.loading} onPage={setPage} />
        {pageData ? (
          <p className="visually-hidden" aria-live="polite">
            {plural(pageData.total, 'document')}
          </p>
        ) : null}
      </section>
    </section>
  );
}

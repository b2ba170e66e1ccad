'use client';

import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { useCollections } from '../../hooks/use-collections';
import { useResource } from '../../hooks/use-resource';
import { useUrlState } from '../../hooks/use-url-state';
import { pageFromParam } from '../../lib/url-state';
import { useApiClient } from '../../hooks/use-api-client';
import { collectionName } from '../../lib/collections';
import { formatBytes, formatDateTime, plural } from '../../lib/format';
import { isTerminal } from '../../lib/ingestion';
import { ingestionStore, useIngestionStore, watchDocument } from '../../store/ingestion.store';
import { ErrorNotice } from '../ui/error-notice';
import { Notice } from '../ui/notice';
import { Pagination } from '../ui/pagination';
import { DocumentStatusCell } from './document-status';
import './documents.css';

const CHUNK_PAGE_SIZE = 20;

/** One document: its state, and its passages with their heading paths. */
export function DocumentDetail({ id }: { id: string }) {
  const api = useApiClient();
  const collections = useCollections();
  // `?chunk=<id>` (from a citation) opens the page that holds that passage and marks it; the page it
  // found is written beside it, so a reload shows the same page.
  const [url, setUrl] = useUrlState({ page: '', chunk: '' });
  const page = pageFromParam(url.page);
  const target = url.chunk;
  const locating = target !== '' && url.page === '';
  const setPage = (next: number) => setUrl({ page: next, chunk: '' });
  const document = useResource(`doc|${id}`, (signal) => api.getDocument(id, { signal }));
  const chunks = useResource(`chunks|${id}|${locating ? `at:${target}` : page}`, (signal) =>
    api.listChunks(
      id,
      locating ? { chunk: target, limit: CHUNK_PAGE_SIZE } : { page, limit: CHUNK_PAGE_SIZE },
      { signal },
    ),
  );
  const [lostPassage, setLostPassage] = useState(false);
  useEffect(() => {
    if (!locating || chunks.loading) return;
    if (chunks.data) setUrl({ page: chunks.data.page });
    else if (chunks.errorCode !== null || chunks.error) {
      // The passage is not (or no longer) one of this document's: show its first page and say so.
      setLostPassage(true);
      setUrl({ chunk: '', page: 1 });
    }
  }, [locating, chunks.loading, chunks.data, chunks.error, chunks.errorCode, setUrl]);
  const tracked = useIngestionStore((state) => state.documents[id]?.status);
  const reloadDocument = document.reload;
  const reloadChunks = chunks.reload;
  const following = useRef(false);

  useEffect(() => {
    const current = document.data;
    if (!current || isTerminal(current.status) || following.current) return;
    following.current = true;
    ingestionStore.getState().track(current.id, current.title, current.status);
    const stop = watchDocument(api, ingestionStore, current.id, () => {
      following.current = false;
      reloadDocument();
      reloadChunks();
    });
    return () => {
      following.current = false;
      stop();
    };
  }, [api, document.data, reloadDocument, reloadChunks]);

  // Scroll to the passage named in the address (?chunk=<id>, or #chunk-<id> of older links).
  useEffect(() => {
    if (!chunks.data || typeof window === 'undefined') return;
    const name = target || (window.location.hash.startsWith('#chunk-') ? window.location.hash.slice(7) : '');
    if (!name || !chunks.data.items.some((chunk) => chunk.id === name)) return;
    const element = window.document.getElementById(`chunk-${name}`);
    element?.scrollIntoView({ block: 'center' });
    element?.focus();
  }, [chunks.data, target]);

  const data = document.data;
  return (
    <section className="page wide-page" aria-labelledby="page-title">
      <p>
        <Link href="/documents">← All documents</Link>
      </p>
      <h1 id="page-title">{data?.title ?? (document.loading ? 'Loading…' : 'Document')}</h1>
      <ErrorNotice error={document.error} onRetry={document.reload} />
      {data ? (
        <dl className="facts">
          <div>
            <dt>Status</dt>
            <dd>
              <DocumentStatusCell
                id={data.id}
                title={data.title}
                status={tracked ?? data.status}
                error={data.error}
              />
            </dd>
          </div>
          <div>
            <dt>Passages</dt>
            <dd>{data.chunkCount}</dd>
          </div>
          {collections.missing ? null : (
            <div>
              <dt>Collection</dt>
              <dd>
                <Link href={`/documents?collection=${encodeURIComponent(data.collectionId)}`}>
                  {collections.collections ? collectionName(data.collectionId, collections.collections) : '…'}
                </Link>
              </dd>
            </div>
          )}
          {data.sourceName ? (
            <div>
              <dt>File</dt>
              <dd>{data.sourceName}</dd>
            </div>
          ) : null}
          {data.origin ? (
            <div data-testid="document-origin">
              <dt>Synced from</dt>
              <dd>
                {data.origin.url ? (
                  <a href={data.origin.url} target="_blank" rel="noreferrer">
                    {data.origin.path}
                  </a>
                ) : (
                  <span className="mono">{data.origin.path}</span>
                )}
                {data.origin.commit ? (
                  <span className="muted"> at commit {data.origin.commit.slice(0, 10)}</span>
                ) : null}
                {data.origin.sourceId ? null : <span className="muted"> (its source was deleted)</span>}
              </dd>
            </div>
          ) : null}
          <div>
            <dt>Size</dt>
            <dd>{formatBytes(data.byteSize)}</dd>
          </div>
          <div>
            <dt>Added</dt>
            <dd>{formatDateTime(data.createdAt)}</dd>
          </div>
        </dl>
      ) : null}

      <section aria-labelledby="chunks-title" className="card">
        <h2 id="chunks-title">Passages</h2>
        {lostPassage ? (
          <Notice tone="warn">
            The cited passage is no longer part of this document (it may have been indexed again); here is its
            first page.
          </Notice>
        ) : null}
        {chunks.missing ? (
          <Notice tone="warn">Listing passages isn&apos;t available on this server yet.</Notice>
        ) : (
          <ErrorNotice error={chunks.error} onRetry={chunks.reload} />
        )}
        {chunks.data && chunks.data.items.length === 0 && !chunks.loading ? (
          <p className="field-hint">
            {data && !isTerminal(data.status)
              ? 'Passages appear here once the document is indexed.'
              : 'No passages.'}
          </p>
        ) : null}
        {chunks.data && chunks.data.items.length > 0 ? (
          <ol className="chunk-list" aria-label="Passages" aria-busy={chunks.loading}>
            {chunks.data.items.map((chunk) => (
              <li
                key={chunk.id}
                id={`chunk-${chunk.id}`}
                className={chunk.id === target ? 'chunk chunk-highlight' : 'chunk'}
                aria-current={chunk.id === target ? 'true' : undefined}
                tabIndex={-1}
              >
                <div className="chunk-head">
                  <span className="mono muted">#{chunk.ordinal + 1}</span>
                  {chunk.headingPath.length ? (
                    <span className="chunk-path">{chunk.headingPath.join(' › ')}</span>
                  ) : (
                    <span className="chunk-path muted">(no heading)</span>
                  )}
                </div>
                <p className="chunk-text">{chunk.text}</p>
              </li>
            ))}
          </ol>
        ) : null}
        <Pagination label="Passages" data={chunks.data} disabled={chunks.loading} onPage={setPage} />
        {chunks.data ? <p className="visually-hidden">{plural(chunks.data.total, 'passage')}</p> : null}
      </section>
    </section>
  );
}

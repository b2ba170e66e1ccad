'use client';

import Link from 'next/link';
import { Fragment, useEffect, useState } from 'react';
import { MAX_COLLECTION_DESCRIPTION_CHARS, MAX_COLLECTION_NAME_CHARS } from '@lumina/shared';
import type { Collection, CollectionPatch } from '@lumina/shared';
import { useApiClient } from '../../hooks/use-api-client';
import { useCapabilities } from '../../hooks/use-capabilities';
import { useCollections } from '../../hooks/use-collections';
import { usePoll } from '../../hooks/use-poll';
import { useDebounced, useResource } from '../../hooks/use-resource';
import { useUrlState } from '../../hooks/use-url-state';
import { isApiError } from '../../lib/api-errors';
import { formatDateTime, plural } from '../../lib/format';
import { pageFromParam } from '../../lib/url-state';
import { ConfirmButton } from '../ui/confirm-button';
import { DataTable } from '../ui/data-table';
import { ErrorNotice } from '../ui/error-notice';
import { Notice } from '../ui/notice';
import { Pagination } from '../ui/pagination';

const PAGE_SIZE = 20;
/** How often the list is read again while a collection is being deleted. */
const DELETING_POLL_MS = 2_000;

interface Draft {
  name: string;
  description: string;
}

function messageOf(error: unknown, fallback: string): string {
  return isApiError(error) ? error.message : fallback;
}

/** The fields that changed, or null when none did. */
function patchOf(collection: Collection, draft: Draft): CollectionPatch | null {
  const patch: CollectionPatch = {};
  if (draft.name.trim() !== collection.name) patch.name = draft.name.trim();
  if (draft.description.trim() !== collection.description) patch.description = draft.description.trim();
  return Object.keys(patch).length > 0 ? patch : null;
}

function DraftFields({
  idPrefix,
  draft,
  onChange,
}: {
  idPrefix: string;
  draft: Draft;
  onChange: (draft: Draft) => void;
}) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${idPrefix}-name`}>Name</label>
        <input
          id={`${idPrefix}-name`}
          required
          maxLength={MAX_COLLECTION_NAME_CHARS}
          value={draft.name}
          onChange={(event) => onChange({ ...draft, name: event.target.value })}
        />
      </div>
      <div className="field field-wide">
        <label htmlFor={`${idPrefix}-description`}>
          Description <span className="muted">(optional)</span>
        </label>
        <input
          id={`${idPrefix}-description`}
          maxLength={MAX_COLLECTION_DESCRIPTION_CHARS}
          value={draft.description}
          onChange={(event) => onChange({ ...draft, description: event.target.value })}
        />
      </div>
    </>
  );
}

/** Collections: the knowledge bases documents, question banks and searches belong to. */
export function CollectionsView() {
  const api = useApiClient();
  const capabilities = useCapabilities();
  const shared = useCollections();
  const [url, setUrl] = useUrlState({ page: '1', q: '' });
  const page = pageFromParam(url.page);
  const [search, setSearch] = useState(url.q);
  const query = useDebounced(search.trim(), 300);
  useEffect(() => {
    if (query !== url.q) setUrl({ q: query, page: 1 });
  }, [query, url.q, setUrl]);

  const list = useResource(`${page}|${query}`, (signal) =>
    api.listCollections({ page, limit: PAGE_SIZE, search: query || undefined }, { signal }),
  );

  const [draft, setDraft] = useState<Draft>({ name: '', description: '' });
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [editDraft, setEditDraft] = useState<Draft>({ name: '', description: '' });
  const [saving, setSaving] = useState(false);
  const [rowError, setRowError] = useState<string | null>(null);

  /** Reads the page again and the app's list of collections (the chat switcher, the documents page). */
  const refresh = () => {
    list.reload();
    shared.reload();
  };

  // A deletion runs as a job: the row says "Deleting…" until the job has removed it.
  const deleting = (list.data?.items ?? []).some((collection) => collection.deleting);
  usePoll(
    deleting,
    async () => {
      refresh();
      return false;
    },
    DELETING_POLL_MS,
  );

  const create = async () => {
    setCreating(true);
    setCreateError(null);
    setCreated(null);
    try {
      const description = draft.description.trim();
      const collection = await api.createCollection({
        name: draft.name.trim(),
        ...(description ? { description } : {}),
      });
      setDraft({ name: '', description: '' });
      setCreated(collection.name);
      refresh();
    } catch (error) {
      setCreateError(messageOf(error, 'The collection could not be created.'));
    } finally {
      setCreating(false);
    }
  };

  const save = async (collection: Collection) => {
    const patch = patchOf(collection, editDraft);
    if (!patch) {
      setEditing(null);
      return;
    }
    setSaving(true);
    setRowError(null);
    try {
      await api.updateCollection(collection.id, patch);
      setEditing(null);
      refresh();
    } catch (error) {
      setRowError(messageOf(error, 'The collection could not be saved.'));
    } finally {
      setSaving(false);
    }
  };

  const remove = async (collection: Collection) => {
    setRowError(null);
    try {
      await api.deleteCollection(collection.id);
      if (editing === collection.id) setEditing(null);
      refresh();
    } catch (error) {
      setRowError(messageOf(error, 'The collection could not be deleted.'));
    }
  };

  const items = list.data?.items ?? [];

  return (
    <section className="page wide-page" aria-labelledby="page-title">
      <h1 id="page-title">Collections</h1>
      <p className="field-hint">
        Knowledge bases: every document belongs to one, and a question searches the collections picked in the
        chat (all of them unless you pick some).
      </p>

      {list.missing ? (
        <Notice tone="warn">Collections aren&apos;t available on this server yet.</Notice>
      ) : null}

      {capabilities.has('createCollection') && !list.missing ? (
        <section className="card" aria-labelledby="new-collection-title">
          <h2 id="new-collection-title">New collection</h2>
          <form
            className="form-grid"
            onSubmit={(event) => {
              event.preventDefault();
              void create();
            }}
          >
            <DraftFields idPrefix="collection" draft={draft} onChange={setDraft} />
            <ErrorNotice error={createError} />
            <div className="form-actions">
              <button
                type="submit"
                className="button button-primary"
                disabled={creating || !draft.name.trim()}
              >
                {creating ? 'Creating…' : 'Create collection'}
              </button>
              {created ? (
                <span className="field-hint" role="status">
                  Created {created}.
                </span>
              ) : null}
            </div>
          </form>
        </section>
      ) : null}

      <section className="card" aria-labelledby="collections-title">
        <div className="card-head">
          <h2 id="collections-title">Collections</h2>
          <div className="search-field">
            <label htmlFor="collection-search" className="visually-hidden">
              Search collections by name
            </label>
            <input
              id="collection-search"
              type="search"
              placeholder="Search by name"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
        </div>

        <ErrorNotice error={rowError} />
        <ErrorNotice error={list.missing ? null : list.error} onRetry={list.reload} />
        {list.data && items.length === 0 && !list.loading ? (
          <p className="empty-state">
            {query ? `No collection name matches "${query}".` : 'No collections yet.'}
          </p>
        ) : null}

        {items.length > 0 ? (
          <DataTable
            label="Collections"
            busy={list.loading}
            head={
              <>
                <th scope="col">Name</th>
                <th scope="col" className="numeric">
                  Documents
                </th>
                <th scope="col" className="numeric">
                  Passages
                </th>
                <th scope="col" className="numeric">
                  Question banks
                </th>
                <th scope="col" className="hide-narrow">
                  Updated
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </>
            }
          >
            {items.map((collection) => (
              <Fragment key={collection.id}>
                <tr
                  data-collection-id={collection.id}
                  data-deleting={collection.deleting ? 'true' : undefined}
                >
                  <td>
                    {collection.deleting ? (
                      collection.name
                    ) : (
                      <Link href={`/documents?collection=${encodeURIComponent(collection.id)}`}>
                        {collection.name}
                      </Link>
                    )}
                    <span className="cell-sub mono">{collection.slug}</span>
                    {collection.description ? (
                      <span className="cell-sub">{collection.description}</span>
                    ) : null}
                  </td>
                  <td className="numeric">{collection.documentCount}</td>
                  <td className="numeric">{collection.chunkCount}</td>
                  <td className="numeric">{collection.bankCount}</td>
                  <td className="hide-narrow">{formatDateTime(collection.updatedAt)}</td>
                  <td className="actions">
                    {collection.deleting ? (
                      <span className="status-chip" data-status="deleting" role="status">
                        Deleting…
                      </span>
                    ) : (
                      <>
                        <button
                          type="button"
                          className="button button-ghost button-small"
                          aria-label={`Rename ${collection.name}`}
                          aria-expanded={editing === collection.id}
                          onClick={() => {
                            setRowError(null);
                            setEditDraft({ name: collection.name, description: collection.description });
                            setEditing(editing === collection.id ? null : collection.id);
                          }}
                        >
                          Rename
                        </button>
                        <ConfirmButton
                          label="Delete"
                          accessibleLabel={`Delete ${collection.name}`}
                          question={`Delete "${collection.name}" with its ${plural(collection.documentCount, 'document')} and ${plural(collection.bankCount, 'question bank')}?`}
                          onConfirm={() => remove(collection)}
                        />
                      </>
                    )}
                  </td>
                </tr>
                {editing === collection.id && !collection.deleting ? (
                  <tr className="editing-row">
                    <td colSpan={6}>
                      <form
                        className="form-grid"
                        aria-label={`Rename ${collection.name}`}
                        onSubmit={(event) => {
                          event.preventDefault();
                          void save(collection);
                        }}
                      >
                        <DraftFields
                          idPrefix={`collection-${collection.id}`}
                          draft={editDraft}
                          onChange={setEditDraft}
                        />
                        <div className="form-actions">
                          <button
                            type="submit"
                            className="button button-primary button-small"
                            disabled={saving || !editDraft.name.trim()}
                          >
                            {saving ? 'Saving…' : 'Save'}
                          </button>
                          <button
                            type="button"
                            className="button button-ghost button-small"
                            onClick={() => setEditing(null)}
                          >
                            Cancel
                          </button>
                        </div>
                      </form>
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
          </DataTable>
        ) : null}

        <Pagination
          label="Collections"
          data={list.data}
          disabled={list.loading}
          onPage={(next) => setUrl({ page: next })}
        />
        {list.data ? (
          <p className="visually-hidden" aria-live="polite">
            {plural(list.data.total, 'collection')}
          </p>
        ) : null}
      </section>
    </section>
  );
}

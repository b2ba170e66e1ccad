'use client';

import { Fragment, useState } from 'react';
import { MAX_KEY_NAME_CHARS } from '@lumina/shared';
import type { ApiKeySummary, CreatedApiKey } from '@lumina/shared';
import { useApiClient } from '../../hooks/use-api-client';
import { useCollections } from '../../hooks/use-collections';
import { useIdentity } from '../../hooks/use-identity';
import { useResource } from '../../hooks/use-resource';
import { useUrlState } from '../../hooks/use-url-state';
import { isApiError } from '../../lib/api-errors';
import { formatDateTime, plural } from '../../lib/format';
import {
  canCreateKey,
  canEditGrants,
  createKeyRequest,
  draftOfGrants,
  EMPTY_KEY_FORM,
  grantLabels,
  grantsChanged,
  keyGrantsRequest,
  keyReachLabel,
  keyStateLabel,
  lastUsedLabel,
  prefixLabel,
  revokeQuestion,
  ROLE_CHOICES,
  roleLabel,
  type GrantsDraft,
  type KeyForm,
} from '../../lib/keys';
import { pageFromParam } from '../../lib/url-state';
import { ConfirmButton } from '../ui/confirm-button';
import { DataTable } from '../ui/data-table';
import { ErrorNotice } from '../ui/error-notice';
import { Notice } from '../ui/notice';
import { Pagination } from '../ui/pagination';
import { CreatedKey } from './created-key';
import { GrantsEditor } from './grants-editor';
import './keys.css';

const PAGE_SIZE = 20;
const COLUMNS = 8;

function messageOf(error: unknown, fallback: string): string {
  return isApiError(error) ? error.message : fallback;
}

/** API keys (admin): who may use the server, with which role, in which collections. */
export function KeysView() {
  const api = useApiClient();
  const { identity, loading: identityLoading, isAdmin } = useIdentity();
  const shared = useCollections();
  const collections = shared.collections;
  const [url, setUrl] = useUrlState({ page: '1' });
  const page = pageFromParam(url.page);

  // Only an admin may list keys; another admin's sign-in reads the list again.
  const list = useResource(isAdmin && identity ? `${identity.id}|${page}` : null, (signal) =>
    api.listKeys({ page, limit: PAGE_SIZE }, { signal }),
  );

  const [form, setForm] = useState<KeyForm>(EMPTY_KEY_FORM);
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [editDraft, setEditDraft] = useState<GrantsDraft>({});
  const [saving, setSaving] = useState(false);
  const [rowError, setRowError] = useState<{ keyId: string; message: string } | null>(null);

  const create = async () => {
    setCreating(true);
    setCreateError(null);
    try {
      const key = await api.createKey(createKeyRequest(form, collections));
      setCreated(key);
      setForm(EMPTY_KEY_FORM);
      // Newest first: the new key heads the first page.
      if (page !== 1) setUrl({ page: 1 });
      else list.reload();
    } catch (error) {
      setCreateError(messageOf(error, 'The API key could not be created.'));
    } finally {
      setCreating(false);
    }
  };

  const startEditing = (key: ApiKeySummary) => {
    setRowError(null);
    if (editing === key.id) {
      setEditing(null);
      return;
    }
    setEditDraft(draftOfGrants(key.grants));
    setEditing(key.id);
  };

  const saveGrants = async (key: ApiKeySummary) => {
    if (!grantsChanged(key, editDraft, collections)) {
      setEditing(null);
      return;
    }
    setSaving(true);
    setRowError(null);
    try {
      await api.setKeyGrants(key.id, keyGrantsRequest(editDraft, collections));
      setEditing(null);
      list.reload();
    } catch (error) {
      setRowError({ keyId: key.id, message: messageOf(error, "The key's collections could not be saved.") });
    } finally {
      setSaving(false);
    }
  };

  const revoke = async (key: ApiKeySummary) => {
    setRowError(null);
    try {
      await api.revokeKey(key.id);
      if (editing === key.id) setEditing(null);
      list.reload();
    } catch (error) {
      // A refusal (409: the last admin key, or ADMIN_API_KEY's) is the server's own sentence.
      setRowError({ keyId: key.id, message: messageOf(error, 'The API key could not be revoked.') });
    }
  };

  const items = list.data?.items ?? [];

  if (!isAdmin) {
    return (
      <section className="page wide-page" aria-labelledby="page-title">
        <h1 id="page-title">API keys</h1>
        {identityLoading ? (
          <p className="field-hint">Checking the key you are signed in with…</p>
        ) : (
          <Notice tone="warn">
            {identity
              ? `You are signed in with the user key “${identity.name}”: only an admin key manages API keys.`
              : 'Only an admin key manages API keys: sign in with one under "Sign in" at the top of the page.'}
          </Notice>
        )}
      </section>
    );
  }

  return (
    <section className="page wide-page" aria-labelledby="page-title">
      <h1 id="page-title">API keys</h1>
      <p className="field-hint">
        Every request to the server carries a key. An admin key does everything; a user key chats and searches
        in the collections granted to it. A key is shown once, when it is created; the server keeps only its
        hash.
      </p>

      {list.missing ? (
        <Notice tone="warn">Managing API keys isn&apos;t available on this server yet.</Notice>
      ) : null}

      {!list.missing ? (
        <section className="card" aria-labelledby="new-key-title">
          <h2 id="new-key-title">New key</h2>
          {created ? (
            <CreatedKey created={created} collections={collections} onDone={() => setCreated(null)} />
          ) : (
            <form
              className="form-grid"
              onSubmit={(event) => {
                event.preventDefault();
                void create();
              }}
            >
              <div className="field">
                <label htmlFor="key-name">Name</label>
                <input
                  id="key-name"
                  required
                  maxLength={MAX_KEY_NAME_CHARS}
                  placeholder="e.g. Alice laptop"
                  value={form.name}
                  onChange={(event) => setForm({ ...form, name: event.target.value })}
                />
              </div>
              <fieldset className="field field-radios">
                <legend>Role</legend>
                <div className="segmented" role="radiogroup" aria-label="Role">
                  {ROLE_CHOICES.map((choice) => (
                    <label
                      key={choice.value}
                      className="segmented-option"
                      htmlFor={`key-role-${choice.value}`}
                    >
                      <input
                        id={`key-role-${choice.value}`}
                        type="radio"
                        name="key-role"
                        value={choice.value}
                        checked={form.role === choice.value}
                        onChange={() => setForm({ ...form, role: choice.value })}
                      />
                      <span>{choice.label}</span>
                    </label>
                  ))}
                </div>
                <p className="field-hint">
                  {ROLE_CHOICES.find((choice) => choice.value === form.role)?.hint}
                </p>
              </fieldset>
              {form.role === 'user' ? (
                <>
                  <GrantsEditor
                    idPrefix="new-key"
                    collections={collections}
                    draft={form.grants}
                    onChange={(grants) => setForm({ ...form, grants })}
                    disabled={creating}
                  />
                  <ErrorNotice error={shared.missing ? null : shared.error} onRetry={shared.reload} />
                </>
              ) : null}
              <ErrorNotice error={createError} />
              <div className="form-actions">
                <button
                  type="submit"
                  className="button button-primary"
                  disabled={creating || !canCreateKey(form)}
                >
                  {creating ? 'Creating…' : 'Create key'}
                </button>
              </div>
            </form>
          )}
        </section>
      ) : null}

      <section className="card" aria-labelledby="keys-title">
        <div className="card-head">
          <h2 id="keys-title">Keys</h2>
          <span className="field-hint">Newest first</span>
        </div>

        <ErrorNotice error={list.missing ? null : list.error} onRetry={list.reload} />
        {list.data && items.length === 0 && !list.loading ? (
          <p className="empty-state">No API keys yet.</p>
        ) : null}

        {items.length > 0 ? (
          <DataTable
            label="API keys"
            busy={list.loading}
            head={
              <>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Prefix</th>
                <th scope="col">Collections</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </>
            }
          >
            {items.map((key) => {
              const own = identity?.id === key.id;
              const reach = keyReachLabel(key);
              return (
                <Fragment key={key.id}>
                  <tr data-key-id={key.id} data-revoked={key.revokedAt ? 'true' : undefined}>
                    <td>
                      {key.name}
                      {own ? <span className="cell-sub">The key you are signed in with</span> : null}
                    </td>
                    <td>{roleLabel(key.role)}</td>
                    <td className="mono">{prefixLabel(key.prefix)}</td>
                    <td>
                      {reach ? (
                        <span className="muted">{reach}</span>
                      ) : (
                        <ul className="grant-chips">
                          {grantLabels(key.grants, collections).map((grant) => (
                            <li key={grant.collectionId} className="chip" data-access={grant.access}>
                              {grant.label}
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                    <td>{formatDateTime(key.createdAt)}</td>
                    <td>{lastUsedLabel(key.lastUsedAt)}</td>
                    <td>
                      <span className="status-chip" data-status={key.revokedAt ? 'revoked' : 'active'}>
                        {keyStateLabel(key)}
                      </span>
                    </td>
                    <td className="actions">
                      {canEditGrants(key) ? (
                        <button
                          type="button"
                          className="button button-ghost button-small"
                          aria-label={`Edit the collections of ${key.name}`}
                          aria-expanded={editing === key.id}
                          onClick={() => startEditing(key)}
                        >
                          Collections
                        </button>
                      ) : null}
                      {key.revokedAt ? null : (
                        <ConfirmButton
                          label="Revoke"
                          accessibleLabel={`Revoke ${key.name}`}
                          question={revokeQuestion(key, own)}
                          onConfirm={() => revoke(key)}
                        />
                      )}
                    </td>
                  </tr>
                  {rowError?.keyId === key.id ? (
                    <tr className="editing-row">
                      <td colSpan={COLUMNS}>
                        <ErrorNotice error={rowError.message} />
                      </td>
                    </tr>
                  ) : null}
                  {editing === key.id && canEditGrants(key) ? (
                    <tr className="editing-row">
                      <td colSpan={COLUMNS}>
                        <form
                          className="form-grid"
                          aria-label={`Collections of ${key.name}`}
                          onSubmit={(event) => {
                            event.preventDefault();
                            void saveGrants(key);
                          }}
                        >
                          <GrantsEditor
                            idPrefix={`key-${key.id}`}
                            collections={collections}
                            draft={editDraft}
                            onChange={setEditDraft}
                            disabled={saving}
                          />
                          <div className="form-actions">
                            <button
                              type="submit"
                              className="button button-primary button-small"
                              disabled={saving || !grantsChanged(key, editDraft, collections)}
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
              );
            })}
          </DataTable>
        ) : null}

        <Pagination
          label="API keys"
          data={list.data}
          disabled={list.loading}
          onPage={(next) => setUrl({ page: next })}
        />
        {list.data ? (
          <p className="visually-hidden" aria-live="polite">
            {plural(list.data.total, 'API key')}
          </p>
        ) : null}
      </section>
    </section>
  );
}

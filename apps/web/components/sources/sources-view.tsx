'use client';

import { SOURCE_KINDS } from '@lumina/shared';
import type { Source, SourceKind, SyncRun } from '@lumina/shared';
import { useState } from 'react';
import { useApiClient } from '../../hooks/use-api-client';
import { useCollections } from '../../hooks/use-collections';
import { useIdentity } from '../../hooks/use-identity';
import { usePoll } from '../../hooks/use-poll';
import { useResource } from '../../hooks/use-resource';
import { isApiError } from '../../lib/api-errors';
import { formatDateTime } from '../../lib/format';
import {
  EMPTY_SOURCE_FORM,
  isBusy,
  KIND_LABELS,
  LOCATION_LABELS,
  runCounts,
  scheduleLabel,
  sourceInputOf,
  sourceLocation,
  type SourceForm,
} from '../../lib/sources';
import { ConfirmButton } from '../ui/confirm-button';
import { ErrorNotice } from '../ui/error-notice';
import { Notice } from '../ui/notice';
import './sources.css';

function messageOf(error: unknown, fallback: string): string {
  return isApiError(error) ? error.message : fallback;
}

/** Sources (admin): folders, Git repositories and websites that collections keep in sync. */
export function SourcesView() {
  const api = useApiClient();
  const { identity, loading: identityLoading, isAdmin } = useIdentity();
  const collections = useCollections().collections ?? [];
  const list = useResource(isAdmin && identity ? `${identity.id}|sources` : null, (signal) =>
    api.listSources({ limit: 100 }, { signal }),
  );
  const sources = list.data?.items ?? [];
  const busy = sources.some(isBusy);
  // While a sync waits or runs, its state and counts are read again every second.
  usePoll(busy, async () => {
    list.reload();
    return false;
  });

  const [form, setForm] = useState<SourceForm>(EMPTY_SOURCE_FORM);
  const [formError, setFormError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const set = <K extends keyof SourceForm>(key: K, value: SourceForm[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const create = async () => {
    const built = sourceInputOf(form);
    if ('error' in built) {
      setFormError(built.error);
      return;
    }
    setCreating(true);
    setFormError(null);
    try {
      await api.createSource(built.input);
      setForm(EMPTY_SOURCE_FORM);
      list.reload();
    } catch (error) {
      setFormError(messageOf(error, 'The source could not be created.'));
    } finally {
      setCreating(false);
    }
  };

  if (!isAdmin) {
    return (
      <section className="page wide-page" aria-labelledby="page-title">
        <h1 id="page-title">Sources</h1>
        {identityLoading ? (
          <p className="field-hint">Checking the key you are signed in with…</p>
        ) : (
          <Notice tone="warn">
            Only an admin key manages sources: sign in with one under &ldquo;Sign in&rdquo;.
          </Notice>
        )}
      </section>
    );
  }

  const collectionName = (id: string) => collections.find((collection) => collection.id === id)?.name ?? id;

  return (
    <section className="page wide-page" aria-labelledby="page-title">
      <h1 id="page-title">Sources</h1>
      <p className="field-hint">
        A Git repository, a server folder or a website whose documents a collection keeps in sync. A sync adds
        what appeared, re-indexes what changed and removes what went away; unchanged files cost nothing.
      </p>

      <form
        className="card form-grid"
        aria-label="Add a source"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <h2 className="field-wide">Add a source</h2>
        <div className="field">
          <label htmlFor="source-name">Name</label>
          <input
            id="source-name"
            value={form.name}
            maxLength={120}
            onChange={(e) => set('name', e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="source-kind">Kind</label>
          <select
            id="source-kind"
            value={form.kind}
            onChange={(e) => set('kind', e.target.value as SourceKind)}
          >
            {SOURCE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="source-collection">Collection</label>
          <select
            id="source-collection"
            value={form.collectionId}
            onChange={(e) => set('collectionId', e.target.value)}
          >
            <option value="">The default collection</option>
            {collections.map((collection) => (
              <option key={collection.id} value={collection.id}>
                {collection.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field field-wide">
          <label htmlFor="source-location">{LOCATION_LABELS[form.kind]}</label>
          <input
            id="source-location"
            value={form.location}
            onChange={(e) => set('location', e.target.value)}
          />
        </div>
        {form.kind === 'git' ? (
          <>
            <div className="field">
              <label htmlFor="source-branch">Branch</label>
              <input
                id="source-branch"
                value={form.branch}
                placeholder="main"
                onChange={(e) => set('branch', e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor="source-web-url">Web URL pattern (optional)</label>
              <input
                id="source-web-url"
                value={form.webUrl}
                placeholder="https://git.example.com/handbook/blob/{commit}/{path}"
                onChange={(e) => set('webUrl', e.target.value)}
              />
            </div>
          </>
        ) : null}
        {form.kind === 'website' ? (
          <div className="field">
            <label htmlFor="source-max-pages">At most this many pages</label>
            <input
              id="source-max-pages"
              inputMode="numeric"
              value={form.maxPages}
              placeholder="200"
              onChange={(e) => set('maxPages', e.target.value)}
            />
          </div>
        ) : (
          <>
            <div className="field">
              <label htmlFor="source-include">Include (one glob a line)</label>
              <textarea
                id="source-include"
                rows={2}
                value={form.include}
                placeholder="docs/**/*.md"
                onChange={(e) => set('include', e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor="source-exclude">Exclude (one glob a line)</label>
              <textarea
                id="source-exclude"
                rows={2}
                value={form.exclude}
                onChange={(e) => set('exclude', e.target.value)}
              />
            </div>
          </>
        )}
        <div className="field">
          <label htmlFor="source-schedule">Sync every (minutes)</label>
          <input
            id="source-schedule"
            inputMode="numeric"
            value={form.schedule}
            placeholder="only when asked"
            onChange={(e) => set('schedule', e.target.value)}
          />
        </div>
        {formError ? (
          <div className="field-wide">
            <Notice tone="bad" alert>
              {formError}
            </Notice>
          </div>
        ) : null}
        <div className="form-actions field-wide">
          <button type="submit" className="button button-primary" disabled={creating}>
            {creating ? 'Adding…' : 'Add source'}
          </button>
        </div>
      </form>

      <ErrorNotice error={list.error} onRetry={list.reload} />
      {list.data && sources.length === 0 ? <p className="field-hint">No source yet.</p> : null}
      <ul className="source-cards" aria-label="Sources">
        {sources.map((source) => (
          <SourceCard
            key={source.id}
            source={source}
            collectionName={collectionName(source.collectionId)}
            onChanged={list.reload}
          />
        ))}
      </ul>
    </section>
  );
}

function SourceCard({
  source,
  collectionName,
  onChanged,
}: {
  source: Source;
  collectionName: string;
  onChanged: () => void;
}) {
  const api = useApiClient();
  const [error, setError] = useState<string | null>(null);
  const [showRuns, setShowRuns] = useState(false);
  const runs = useResource(
    showRuns ? `${source.id}|runs|${source.lastRun?.id ?? ''}|${source.lastRun?.status ?? ''}` : null,
    (signal) => api.listSourceRuns(source.id, { limit: 10 }, { signal }),
  );
  const syncing = isBusy(source);
  const run = source.lastRun;

  const act = async (action: () => Promise<unknown>, fallback: string) => {
    setError(null);
    try {
      await action();
      onChanged();
    } catch (caught) {
      setError(messageOf(caught, fallback));
    }
  };

  return (
    <li
      className="card source-card"
      data-source-id={source.id}
      data-state={source.state}
      aria-label={`Source ${source.name}`}
    >
      <div className="card-head">
        <h2>{source.name}</h2>
        <span className="chip">{KIND_LABELS[source.kind]}</span>
        <span className="chip" data-testid="source-state">
          {source.state === 'syncing'
            ? 'Syncing'
            : source.state === 'queued'
              ? 'Waiting for a worker'
              : 'Idle'}
        </span>
      </div>
      <p className="mono">{sourceLocation(source)}</p>
      <p className="field-hint">
        Into {collectionName} · {source.itemCount} file{source.itemCount === 1 ? '' : 's'} · syncs{' '}
        {scheduleLabel(source.scheduleMinutes)}
        {source.nextSyncAt ? ` · next ${formatDateTime(source.nextSyncAt)}` : ''}
        {source.cursor ? ` · at commit ${source.cursor.slice(0, 10)}` : ''}
      </p>
      {syncing ? (
        <div className="progress" data-tone="normal">
          <div
            className="progress-track progress-indeterminate"
            role="progressbar"
            aria-label={`Syncing ${source.name}`}
          >
            <div className="progress-fill" />
          </div>
          <span className="progress-text">
            {run?.status === 'running' ? `Syncing · ${runCounts(run)} so far` : 'Waiting for a worker'}
          </span>
        </div>
      ) : null}
      {run && run.status !== 'running' ? <RunReport run={run} title="Last sync" /> : null}
      <div className="form-actions">
        <button
          type="button"
          className="button button-primary button-small"
          disabled={syncing}
          onClick={() => void act(() => api.syncSource(source.id), 'The sync could not be started.')}
        >
          Sync now
        </button>
        <button
          type="button"
          className="button button-ghost button-small"
          aria-expanded={showRuns}
          onClick={() => setShowRuns((open) => !open)}
        >
          {showRuns ? 'Hide the sync history' : 'Sync history'}
        </button>
        <ConfirmButton
          label="Delete"
          accessibleLabel={`Delete the source ${source.name}`}
          question={`Delete “${source.name}” and the ${source.itemCount} documents it brought in?`}
          onConfirm={() => act(() => api.deleteSource(source.id, false), 'The source could not be deleted.')}
        />
      </div>
      {error ? (
        <Notice tone="bad" alert>
          {error}
        </Notice>
      ) : null}
      {showRuns ? (
        <section aria-label={`Sync history of ${source.name}`}>
          <ErrorNotice error={runs.error} onRetry={runs.reload} />
          {(runs.data?.items ?? []).map((item) => (
            <RunReport key={item.id} run={item} title={formatDateTime(item.startedAt)} />
          ))}
        </section>
      ) : null}
    </li>
  );
}

const RUN_STATUS: Record<SyncRun['status'], string> = {
  running: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
  interrupted: 'interrupted (ran again)',
};

/** One sync's report: counts, duration, commits and the items that failed with why. */
function RunReport({ run, title }: { run: SyncRun; title: string }) {
  return (
    <div className="sync-report" data-run-status={run.status} data-testid="sync-report">
      <p>
        <strong>{title}:</strong> {RUN_STATUS[run.status]} · {runCounts(run)}
        {run.durationMs !== null ? ` · ${(run.durationMs / 1000).toFixed(1)} s` : ''}
        {run.cursorAfter ? ` · commit ${run.cursorAfter.slice(0, 10)}` : ''}
        {run.trigger === 'schedule' ? ' · scheduled' : ''}
      </p>
      {run.error ? <p className="notice notice-bad">{run.error}</p> : null}
      {run.failures.length ? (
        <ul className="sync-failures" aria-label="Items that failed">
          {run.failures.map((failure) => (
            <li key={failure.item}>
              <span className="mono">{failure.item}</span>: {failure.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

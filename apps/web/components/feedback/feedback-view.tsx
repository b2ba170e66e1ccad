'use client';

import { FEEDBACK_REASONS } from '@lumina/shared';
import type { FeedbackEntry, FeedbackReason, ListFeedbackQuery, QuestionBank } from '@lumina/shared';
import Link from 'next/link';
import { useState } from 'react';
import { useApiClient } from '../../hooks/use-api-client';
import { useCollections } from '../../hooks/use-collections';
import { useIdentity } from '../../hooks/use-identity';
import { useResource } from '../../hooks/use-resource';
import { useUrlState } from '../../hooks/use-url-state';
import { isApiError } from '../../lib/api-errors';
import { defaultScope, REASON_LABELS } from '../../lib/feedback';
import { pageFromParam } from '../../lib/url-state';
import { ErrorNotice } from '../ui/error-notice';
import { Notice } from '../ui/notice';
import { Pagination } from '../ui/pagination';
import { FeedbackChart } from './feedback-chart';
import { BankChoice, FeedbackEntryCard } from './feedback-entry';
import './feedback.css';

const PAGE_SIZE = 10;
const CHART_DAYS = ['7', '30', '90'] as const;

function messageOf(error: unknown, fallback: string): string {
  return isApiError(error) ? error.message : fallback;
}

/**
 * The review queue: what users rated, with the question, the answer, its passages and trace; each rating
 * can become a question of a bank (one at a time with the source picker, or several at once).
 */
export function FeedbackView() {
  const api = useApiClient();
  const { identity, loading: identityLoading, isAdmin } = useIdentity();
  const collections = useCollections().collections ?? [];
  const [url, setUrl] = useUrlState({
    page: '1',
    rating: '',
    reason: '',
    collection: '',
    from: '',
    to: '',
    unreviewed: 'true',
    days: '30',
  });
  const page = pageFromParam(url.page);
  const reviewer = isAdmin || (identity?.grants ?? []).some((grant) => grant.access === 'write');
  const query: ListFeedbackQuery = {
    page,
    limit: PAGE_SIZE,
    ...(url.rating === 'up' || url.rating === 'down' ? { rating: url.rating } : {}),
    ...((FEEDBACK_REASONS as readonly string[]).includes(url.reason)
      ? { reason: url.reason as FeedbackReason }
      : {}),
    ...(url.collection ? { collectionId: url.collection } : {}),
    ...(url.from ? { from: url.from } : {}),
    // "to" is a day: everything rated on it is in.
    ...(url.to ? { to: nextDay(url.to) } : {}),
    ...(url.unreviewed === 'true' ? { unreviewed: true } : {}),
  };
  const listKey = reviewer && identity ? `${identity.id}|${JSON.stringify(query)}` : null;
  const list = useResource(listKey, (signal) => api.listFeedback(query, { signal }));
  const days = CHART_DAYS.includes(url.days as (typeof CHART_DAYS)[number]) ? Number(url.days) : 30;
  const daily = useResource(
    reviewer && identity ? `${identity.id}|daily|${days}|${url.collection}` : null,
    (signal) =>
      api.feedbackDaily({ days, ...(url.collection ? { collectionId: url.collection } : {}) }, { signal }),
  );
  const banks = useResource(reviewer && identity ? `${identity.id}|banks` : null, (signal) =>
    api.listQuestionBanks({ limit: 100 }, { signal }),
  );

  const [selected, setSelected] = useState<Record<string, boolean>>({});
  const [scopes, setScopes] = useState<Record<string, boolean | null>>({});
  const [batchBank, setBatchBank] = useState('');
  const [batchState, setBatchState] = useState<{ busy: boolean; error: string | null; done: string | null }>({
    busy: false,
    error: null,
    done: null,
  });

  const items = list.data?.items ?? [];
  const bankList: QuestionBank[] = banks.data?.items ?? [];
  const scopeOf = (entry: FeedbackEntry) =>
    entry.feedback.id in scopes ? scopes[entry.feedback.id] : defaultScope(entry.feedback.reasons);
  const chosen = items.filter((entry) => selected[entry.feedback.id]);
  const filter = (changes: Partial<Record<keyof typeof url, string>>) => setUrl({ ...changes, page: 1 });

  const addSelected = async () => {
    const undecided = chosen.filter((entry) => scopeOf(entry) === null);
    if (!batchBank) {
      setBatchState({ busy: false, error: 'Choose the question bank to add them to.', done: null });
      return;
    }
    if (undecided.length) {
      setBatchState({
        busy: false,
        error: `Say whether the documents answer ${undecided.length === 1 ? 'this question' : 'these questions'} (in scope or out of scope): ${undecided.map((entry) => `“${entry.question ?? entry.feedback.id}”`).join(', ')}.`,
        done: null,
      });
      return;
    }
    setBatchState({ busy: true, error: null, done: null });
    try {
      const result = await api.feedbackToBank({
        bankId: batchBank,
        entries: chosen.map((entry) => ({
          feedbackId: entry.feedback.id,
          inScope: scopeOf(entry) as boolean,
          ...(scopeOf(entry) ? { expectedSources: entry.proposedSources } : {}),
        })),
      });
      const bank = bankList.find((item) => item.id === batchBank);
      setSelected({});
      setBatchState({
        busy: false,
        error: null,
        done: `Added ${result.items.length} question${result.items.length === 1 ? '' : 's'} to “${bank?.name ?? 'the bank'}”.`,
      });
      list.reload();
    } catch (error) {
      setBatchState({
        busy: false,
        error: messageOf(error, 'The questions could not be added.'),
        done: null,
      });
    }
  };

  if (!reviewer) {
    return (
      <section className="page wide-page" aria-labelledby="page-title">
        <h1 id="page-title">Feedback</h1>
        {identityLoading ? (
          <p className="field-hint">Checking the key you are signed in with…</p>
        ) : (
          <Notice tone="warn">
            Admins and keys with write access to a collection review the ratings of its answers. Sign in with
            such a key under &ldquo;Sign in&rdquo; at the top of the page.
          </Notice>
        )}
      </section>
    );
  }

  return (
    <section className="page wide-page feedback-page" aria-labelledby="page-title">
      <h1 id="page-title">Feedback</h1>
      <p className="field-hint">
        What people rated in the chat. Turn a rating into a question of a bank, and it is measured in every
        evaluation of that bank from then on.
      </p>

      <section className="card" aria-labelledby="feedback-chart-title">
        <div className="card-head">
          <h2 id="feedback-chart-title">Each day</h2>
          <label>
            Last{' '}
            <select value={String(days)} onChange={(event) => setUrl({ days: event.target.value })}>
              {CHART_DAYS.map((value) => (
                <option key={value} value={value}>
                  {value} days
                </option>
              ))}
            </select>
          </label>
        </div>
        <ErrorNotice error={daily.error} onRetry={daily.reload} />
        {daily.data ? <FeedbackChart days={daily.data.days} /> : null}
      </section>

      <form
        className="feedback-filters"
        aria-label="Filter the feedback"
        onSubmit={(event) => event.preventDefault()}
      >
        <FilterField
          id="feedback-rating"
          label="Rating"
          value={url.rating}
          onChange={(rating) => filter({ rating })}
          options={[
            ['down', 'Thumbs down'],
            ['up', 'Thumbs up'],
          ]}
        />
        <FilterField
          id="feedback-reason"
          label="Reason"
          value={url.reason}
          onChange={(reason) => filter({ reason })}
          options={FEEDBACK_REASONS.map((reason) => [reason, REASON_LABELS[reason]])}
        />
        <FilterField
          id="feedback-collection"
          label="Collection"
          value={url.collection}
          onChange={(collection) => filter({ collection })}
          options={collections.map((collection) => [collection.id, collection.name])}
        />
        <FilterField
          id="feedback-from"
          label="From"
          type="date"
          value={url.from}
          onChange={(from) => filter({ from })}
        />
        <FilterField
          id="feedback-to"
          label="To"
          type="date"
          value={url.to}
          onChange={(to) => filter({ to })}
        />
        <div className="field field-toggle">
          <input
            id="feedback-unreviewed"
            type="checkbox"
            className="switch"
            checked={url.unreviewed === 'true'}
            onChange={(event) => filter({ unreviewed: event.target.checked ? 'true' : 'false' })}
          />
          <label htmlFor="feedback-unreviewed">Not reviewed yet</label>
        </div>
      </form>

      <ErrorNotice error={list.error} onRetry={list.reload} />
      <ErrorNotice error={banks.error} onRetry={banks.reload} />
      {list.data && items.length === 0 ? (
        <p className="field-hint">
          {url.unreviewed === 'true'
            ? 'No rating waits for review with these filters.'
            : 'No rating matches these filters.'}
        </p>
      ) : null}

      {chosen.length > 0 ? (
        <section className="card feedback-batch" aria-label="Add the selected ratings to a question bank">
          <p>
            {chosen.length} selected. Each becomes a question with the proposed sources (in scope) and the
            note as expected answer.
          </p>
          <div className="form-actions">
            <label htmlFor="feedback-batch-bank">Question bank</label>
            <BankChoice id="feedback-batch-bank" banks={bankList} value={batchBank} onChange={setBatchBank} />
            <button
              type="button"
              className="button button-primary"
              disabled={batchState.busy}
              onClick={() => void addSelected()}
            >
              {batchState.busy ? 'Adding…' : `Add ${chosen.length} to the bank`}
            </button>
          </div>
        </section>
      ) : null}
      {batchState.error ? (
        <Notice tone="bad" alert>
          {batchState.error}
        </Notice>
      ) : null}
      {batchState.done ? <Notice tone="good">{batchState.done}</Notice> : null}

      <ol className="feedback-list" aria-label="Ratings" aria-busy={list.loading}>
        {items.map((entry) => (
          <FeedbackEntryCard
            key={entry.feedback.id}
            entry={entry}
            collections={collections}
            banks={bankList}
            selected={Boolean(selected[entry.feedback.id])}
            onSelect={(value) => setSelected((current) => ({ ...current, [entry.feedback.id]: value }))}
            scope={scopeOf(entry)}
            onScope={(value) => setScopes((current) => ({ ...current, [entry.feedback.id]: value }))}
            onChanged={list.reload}
          />
        ))}
      </ol>
      <Pagination
        label="Feedback"
        data={list.data}
        disabled={list.loading}
        onPage={(next) => setUrl({ page: next })}
      />
      <p className="field-hint">
        Banks made from feedback are evaluated like any other: see{' '}
        <Link href="/question-banks">Question banks</Link>.
      </p>
    </section>
  );
}

/** One filter: a choice among `options` (with "Any"), or a date. */
function FilterField({
  id,
  label,
  value,
  onChange,
  options,
  type,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options?: readonly (readonly [string, string])[];
  type?: 'date';
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {type ? (
        <input id={id} type={type} value={value} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">Any</option>
          {(options ?? []).map(([option, name]) => (
            <option key={option} value={option}>
              {name}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}

/** The day after a YYYY-MM-DD date, so that a "to" day is included. */
function nextDay(day: string): string {
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(time) ? day : new Date(time + 86_400_000).toISOString().slice(0, 10);
}

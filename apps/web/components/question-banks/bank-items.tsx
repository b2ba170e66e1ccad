'use client';

import { Fragment, useState } from 'react';
import { useResource } from '../../hooks/use-resource';
import { useUrlState } from '../../hooks/use-url-state';
import { isApiError } from '../../lib/api-errors';
import { useApiClient } from '../../hooks/use-api-client';
import type { QuestionBankItem } from '@lumina/shared';
import { draftFromItem, isUnreviewedDraft } from '../../lib/item-form';
import { pageFromParam } from '../../lib/url-state';
import { ConfirmButton } from '../ui/confirm-button';
import { DataTable } from '../ui/data-table';
import { ErrorNotice } from '../ui/error-notice';
import { Pagination } from '../ui/pagination';
import { ItemForm } from './item-form';
import './question-banks.css';

const PAGE_SIZE = 10;

function sourcesSummary(item: QuestionBankItem): string {
  const sources = item.expectedSources ?? [];
  if (sources.length === 0) return '—';
  const chunks = sources.filter((source) => source.chunkId).length;
  const documents = sources.length - chunks;
  return [
    documents ? `${documents} doc${documents === 1 ? '' : 's'}` : '',
    chunks ? `${chunks} passage${chunks === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

export interface BankItemsProps {
  bankId: string;
  /** Bumped by the page when items change elsewhere (import, generation). */
  version: number;
  onChanged: () => void;
}

/** A bank's questions, a page at a time: add, edit in place, delete; filter by scope. */
export function BankItems({ bankId, version, onChanged }: BankItemsProps) {
  const api = useApiClient();
  const [url, setUrl] = useUrlState({ page: '1', scope: '' });
  const page = pageFromParam(url.page);
  const scope: '' | 'true' | 'false' = url.scope === 'true' || url.scope === 'false' ? url.scope : '';
  const setPage = (next: number) => setUrl({ page: next });
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const items = useResource(`${bankId}|${page}|${scope}|${version}`, (signal) =>
    api.listQuestionBankItems(
      bankId,
      { page, limit: PAGE_SIZE, inScope: scope === '' ? undefined : scope === 'true' },
      { signal },
    ),
  );

  const save = async (action: () => Promise<unknown>, fallback: string) => {
    try {
      await action();
      items.reload();
      onChanged();
      return null;
    } catch (error) {
      return isApiError(error) ? error.message : fallback;
    }
  };

  const data = items.data;
  return (
    <section className="card" aria-labelledby="items-title">
      <div className="card-head">
        <h2 id="items-title">Questions</h2>
        <div className="filters">
          <div className="field field-inline">
            <label htmlFor="items-scope">Scope</label>
            <select
              id="items-scope"
              value={scope}
              onChange={(e) => setUrl({ scope: e.target.value, page: 1 })}
            >
              <option value="">All</option>
              <option value="true">In scope</option>
              <option value="false">Out of scope</option>
            </select>
          </div>
          <button
            type="button"
            className="button button-secondary"
            aria-expanded={adding}
            onClick={() => setAdding((open) => !open)}
          >
            {adding ? 'Close the form' : 'Add a question'}
          </button>
        </div>
      </div>

      {adding ? (
        <ItemForm
          submitLabel="Add question"
          onSubmit={(input) =>
            save(() => api.createQuestionBankItems(bankId, [input]), 'The question could not be added.')
          }
        />
      ) : null}

      <ErrorNotice error={actionError} />
      <ErrorNotice error={items.error} onRetry={items.reload} />
      {data && data.items.length === 0 && !items.loading ? (
        <p className="empty-state">
          {scope
            ? 'No question matches this filter.'
            : 'No questions yet: add one, import a file, or generate some.'}
        </p>
      ) : null}

      {data && data.items.length > 0 ? (
        <DataTable
          label="Questions"
          busy={items.loading}
          head={
            <>
              <th scope="col">Question</th>
              <th scope="col">Scope</th>
              <th scope="col" className="hide-narrow">
                Expected sources
              </th>
              <th scope="col" className="hide-narrow">
                Origin
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </>
          }
        >
          {data.items.map((item) => (
            <Fragment key={item.id}>
              <tr data-item-id={item.id}>
                <td>
                  {item.question}
                  {isUnreviewedDraft(item) ? (
                    <span
                      className="chip chip-draft"
                      title="Written offline from the passage's headings and key phrases: read it and edit it before evaluating with it."
                    >
                      draft: review
                    </span>
                  ) : null}
                  {item.tags?.length ? <span className="cell-sub">{item.tags.join(', ')}</span> : null}
                </td>
                <td>{item.inScope ? 'in scope' : <span className="chip">out of scope</span>}</td>
                <td className="hide-narrow">{sourcesSummary(item)}</td>
                <td className="hide-narrow">
                  {item.source}
                  {item.generator ? ` (${item.generator})` : ''}
                </td>
                <td className="actions">
                  <button
                    type="button"
                    className="button button-ghost button-small"
                    aria-label={`Edit "${item.question}"`}
                    aria-expanded={editing === item.id}
                    onClick={() => setEditing(editing === item.id ? null : item.id)}
                  >
                    Edit
                  </button>
                  <ConfirmButton
                    label="Delete"
                    accessibleLabel={`Delete "${item.question}"`}
                    question="Delete this question?"
                    onConfirm={async () => {
                      setActionError(
                        await save(
                          () => api.deleteQuestionBankItem(bankId, item.id),
                          'The question could not be deleted.',
                        ),
                      );
                    }}
                  />
                </td>
              </tr>
              {editing === item.id ? (
                <tr className="editing-row">
                  <td colSpan={5}>
                    <ItemForm
                      initial={draftFromItem(item)}
                      knownSources={item.expectedSources ?? []}
                      submitLabel="Save question"
                      onCancel={() => setEditing(null)}
                      onSubmit={async (input) => {
                        const problem = await save(
                          () => api.updateQuestionBankItem(bankId, item.id, input),
                          'The question could not be saved.',
                        );
                        if (!problem) setEditing(null);
                        return problem;
                      }}
                    />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </DataTable>
      ) : null}
      <Pagination label="Questions" data={data} disabled={items.loading} onPage={setPage} />
    </section>
  );
}

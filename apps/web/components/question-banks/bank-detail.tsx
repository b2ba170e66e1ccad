'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useResource } from '../../hooks/use-resource';
import { isApiError } from '../../lib/api-errors';
import { useApiClient } from '../../hooks/use-api-client';
import { formatDateTime } from '../../lib/format';
import { ConfirmButton } from '../ui/confirm-button';
import { ErrorNotice } from '../ui/error-notice';
import { BankAblation } from './bank-ablation';
import { BankEvaluate } from './bank-evaluate';
import { BankFields, type BankDraft } from './bank-fields';
import { BankGenerate } from './bank-generate';
import { BankImportExport } from './bank-import-export';
import { BankItems } from './bank-items';
import { BankRerankers } from './bank-rerankers';
import { useTemplates } from './use-templates';
import './question-banks.css';

/** One question bank: its questions, import/export, generation, evaluation and a learned reranker. */
export function BankDetail({ id }: { id: string }) {
  const api = useApiClient();
  const router = useRouter();
  const [version, setVersion] = useState(0);
  const bank = useResource(`bank|${id}|${version}`, (signal) => api.getQuestionBank(id, { signal }));
  const templates = useTemplates();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<BankDraft>({ name: '', templateId: '', description: '' });
  const [error, setError] = useState<string | null>(null);
  const changed = () => setVersion((value) => value + 1);
  const data = bank.data;
  const templateList = templates.data?.items ?? [];
  const template = templateList.find((item) => item.id === data?.templateId);

  return (
    <section className="page wide-page" aria-labelledby="page-title">
      <p>
        <Link href="/question-banks">← All question banks</Link>
      </p>
      <div className="page-head">
        <h1 id="page-title">{data?.name ?? (bank.loading ? 'Loading…' : 'Question bank')}</h1>
        {data ? (
          <div className="form-actions">
            <button
              type="button"
              className="button button-secondary button-small"
              aria-expanded={editing}
              onClick={() => {
                setDraft({
                  name: data.name,
                  templateId: data.templateId ?? '',
                  description: data.description ?? '',
                });
                setEditing((open) => !open);
              }}
            >
              Edit
            </button>
            <ConfirmButton
              label="Delete bank"
              question="Delete this bank, its questions and its evaluation runs?"
              onConfirm={async () => {
                try {
                  await api.deleteQuestionBank(id);
                  router.push('/question-banks');
                } catch (problem) {
                  setError(isApiError(problem) ? problem.message : 'The bank could not be deleted.');
                }
              }}
            />
          </div>
        ) : null}
      </div>
      <ErrorNotice error={bank.error} onRetry={bank.reload} />
      <ErrorNotice error={error} />
      {data ? (
        <dl className="facts">
          <div>
            <dt>Questions</dt>
            <dd data-testid="bank-item-count">{data.itemCount}</dd>
          </div>
          <div>
            <dt>Template</dt>
            <dd>{template ? `${template.name} (${template.kind})` : '—'}</dd>
          </div>
          {data.tags.length ? (
            <div>
              <dt>Tags</dt>
              <dd>{data.tags.join(', ')}</dd>
            </div>
          ) : null}
          <div>
            <dt>Updated</dt>
            <dd>{formatDateTime(data.updatedAt)}</dd>
          </div>
          {data.description ? (
            <div className="facts-wide">
              <dt>Description</dt>
              <dd>{data.description}</dd>
            </div>
          ) : null}
        </dl>
      ) : null}

      {editing && data ? (
        <form
          className="card form-grid"
          aria-label="Edit the bank"
          onSubmit={async (event) => {
            event.preventDefault();
            setError(null);
            try {
              await api.updateQuestionBank(id, {
                name: draft.name.trim(),
                description: draft.description.trim(),
                templateId: draft.templateId || null,
              });
              setEditing(false);
              changed();
            } catch (problem) {
              setError(isApiError(problem) ? problem.message : 'The bank could not be saved.');
            }
          }}
        >
          <BankFields idPrefix="edit-bank" draft={draft} onChange={setDraft} templates={templateList} />
          <div className="form-actions field-wide">
            <button type="submit" className="button button-primary">
              Save
            </button>
            <button type="button" className="button button-ghost" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}

      {data ? (
        <>
          <BankEvaluate bankId={id} itemCount={data.itemCount} />
          <BankAblation bankId={id} itemCount={data.itemCount} />
          <BankRerankers bankId={id} judgedItemCount={data.judgedItemCount} />
          <BankItems bankId={id} version={version} onChanged={changed} />
          <BankImportExport bankId={id} onImported={changed} />
          <BankGenerate
            bankId={id}
            templates={templateList}
            defaultTemplateId={data.templateId}
            onGenerated={changed}
          />
        </>
      ) : null}
    </section>
  );
}

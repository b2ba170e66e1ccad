'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useResource } from '../../hooks/use-resource';
import { isApiError } from '../../lib/api-errors';
import { useApiClient } from '../../lib/api-provider';
import { formatDateTime } from '../../lib/format';
import { ConfirmButton } from '../ui/confirm-button';
import { Notice } from '../ui/notice';
import { BankEvaluate } from './bank-evaluate';
import { BankGenerate } from './bank-generate';
import { BankImportExport } from './bank-import-export';
import { BankItems } from './bank-items';
import { useTemplates } from './use-templates';

/** One question bank: its questions, import/export, generation and evaluation. */
export function BankDetail({ id }: { id: string }) {
  const api = useApiClient();
  const router = useRouter();
  const [version, setVersion] = useState(0);
  const bank = useResource(`bank|${id}|${version}`, (signal) => api.getQuestionBank(id, { signal }));
  const templates = useTemplates();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [templateId, setTemplateId] = useState('');
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
                setName(data.name);
                setDescription(data.description ?? '');
                setTemplateId(data.templateId ?? '');
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
      {bank.error ? (
        <Notice tone="bad" alert onRetry={bank.reload}>
          {bank.error}
        </Notice>
      ) : null}
      {error ? (
        <Notice tone="bad" alert>
          {error}
        </Notice>
      ) : null}
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
                name: name.trim(),
                description: description.trim(),
                templateId: templateId || null,
              });
              setEditing(false);
              changed();
            } catch (problem) {
              setError(isApiError(problem) ? problem.message : 'The bank could not be saved.');
            }
          }}
        >
          <div className="field">
            <label htmlFor="edit-bank-name">Name</label>
            <input
              id="edit-bank-name"
              required
              maxLength={200}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="edit-bank-template">Template</label>
            <select
              id="edit-bank-template"
              value={templateId}
              onChange={(e) => setTemplateId(e.target.value)}
            >
              <option value="">None</option>
              {templateList.map((item) => (
                <option key={item.id} value={item.id}>
                  {item.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field field-wide">
            <label htmlFor="edit-bank-description">Description</label>
            <input
              id="edit-bank-description"
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          </div>
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

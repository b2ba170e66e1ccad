'use client';

import { useState } from 'react';
import { useAction } from '../../hooks/use-action';
import { usePoll } from '../../hooks/use-poll';
import { useResource } from '../../hooks/use-resource';
import { useApiClient } from '../../hooks/use-api-client';
import type { GenerationJobStatus, QuestionTemplate } from '@lumina/shared';
import { ErrorNotice } from '../ui/error-notice';
import { ProgressBar } from '../ui/progress-bar';
import './question-banks.css';

export interface BankGenerateProps {
  bankId: string;
  templates: readonly QuestionTemplate[];
  defaultTemplateId: string | null;
  onGenerated: () => void;
}

const FINISHED_STATES = new Set(['completed', 'failed']);

/** Writes questions from sampled passages of chosen documents (a background job), and follows it. */
export function BankGenerate({ bankId, templates, defaultTemplateId, onGenerated }: BankGenerateProps) {
  const api = useApiClient();
  const [templateId, setTemplateId] = useState(defaultTemplateId ?? '');
  const [documentIds, setDocumentIds] = useState<string[]>([]);
  const [count, setCount] = useState(5);
  const [job, setJob] = useState<GenerationJobStatus | null>(null);
  const start = useAction();
  const documents = useResource('generate-documents', (signal) =>
    api.listDocuments({ page: 1, limit: 100, status: 'indexed' }, { signal }),
  );

  usePoll(job !== null && !FINISHED_STATES.has(job.state), async (signal) => {
    if (!job) return true;
    const next = await api.getGenerationJob(bankId, job.jobId, { signal });
    setJob(next);
    if (next.state === 'completed') onGenerated();
    return FINISHED_STATES.has(next.state);
  });

  const chosenTemplate = templateId || templates[0]?.id || '';
  const indexed = documents.data?.items ?? [];

  return (
    <section className="card" aria-labelledby="generate-title">
      <h2 id="generate-title">Generate questions</h2>
      {templates.length === 0 ? (
        <p className="field-hint">Create a question template first (on the question banks page).</p>
      ) : (
        <form
          className="form-grid"
          aria-label="Generate questions"
          onSubmit={async (event) => {
            event.preventDefault();
            start.setError(null);
            if (documentIds.length === 0) {
              start.setError('Choose at least one document to draw passages from.');
              return;
            }
            await start.run(async () => {
              const queued = await api.generateQuestionBankItems(bankId, {
                templateId: chosenTemplate,
                documentIds,
                count,
              });
              setJob({ ...queued, state: queued.state || 'waiting' });
            }, 'The generation could not be started.');
          }}
        >
          <div className="field">
            <label htmlFor="generate-template">Template</label>
            <select
              id="generate-template"
              value={chosenTemplate}
              onChange={(e) => setTemplateId(e.target.value)}
            >
              {templates.map((template) => (
                <option key={template.id} value={template.id}>
                  {template.name} ({template.kind})
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="generate-count">How many</label>
            <input
              id="generate-count"
              type="number"
              min={1}
              max={200}
              value={count}
              onChange={(e) => setCount(Math.max(1, Math.min(200, Math.round(Number(e.target.value) || 1))))}
            />
          </div>
          <fieldset className="field field-wide document-picker">
            <legend>Documents to draw from</legend>
            {documents.error ? <p className="status-reason">{documents.error}</p> : null}
            {indexed.length === 0 && !documents.loading ? (
              <p className="field-hint">No indexed documents yet.</p>
            ) : null}
            <ul className="checkbox-list">
              {indexed.map((document) => (
                <li key={document.id}>
                  <input
                    id={`generate-doc-${document.id}`}
                    type="checkbox"
                    checked={documentIds.includes(document.id)}
                    onChange={(e) =>
                      setDocumentIds((ids) =>
                        e.target.checked ? [...ids, document.id] : ids.filter((id) => id !== document.id),
                      )
                    }
                  />
                  <label htmlFor={`generate-doc-${document.id}`}>{document.title}</label>
                </li>
              ))}
            </ul>
          </fieldset>
          <div className="form-actions field-wide">
            <button
              type="submit"
              className="button button-primary"
              disabled={start.busy || (job !== null && !FINISHED_STATES.has(job.state))}
            >
              {start.busy ? 'Starting…' : 'Generate'}
            </button>
          </div>
        </form>
      )}
      <ErrorNotice error={start.error} />
      {job ? (
        <div className="job-status" role="status">
          {job.state === 'failed' ? (
            <p className="status-reason">
              The generation failed: {job.failedReason ?? 'the server did not say why.'}
            </p>
          ) : job.state === 'completed' && job.result ? (
            <p>
              Wrote {job.result.created} of {job.result.requested} question
              {job.result.requested === 1 ? '' : 's'} (
              {job.result.generator === 'llm' ? 'by the language model' : 'by the offline template generator'}
              ).
              {job.result.generator === 'llm'
                ? ''
                : ' Offline questions are drafts made from headings and key phrases: each is marked "draft: review" until you edit it.'}
              {job.result.warnings.length ? ` ${job.result.warnings.join(' ')}` : ''}
            </p>
          ) : (
            <ProgressBar
              value={job.progress / 100}
              label="Question generation"
              text={`Generating: ${job.state}, ${job.progress}%`}
            />
          )}
        </div>
      ) : null}
    </section>
  );
}

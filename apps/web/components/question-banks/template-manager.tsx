'use client';

import {
  QUESTION_TEMPLATE_KINDS,
  type QuestionTemplate,
  type QuestionTemplateInput,
  type QuestionTemplateKind,
} from '@lumina/shared';
import { useState } from 'react';
import { useAction } from '../../hooks/use-action';
import { useApiClient } from '../../hooks/use-api-client';
import { ConfirmButton } from '../ui/confirm-button';
import { ErrorNotice } from '../ui/error-notice';
import './question-banks.css';

const DEFAULT_PROMPT =
  'Write one question that the passage below answers, in {{language}}.\n\nDocument: {{title}}\nSection: {{heading}}\n\n{{passage}}';

export interface TemplateManagerProps {
  templates: readonly QuestionTemplate[];
  /** A template was created, changed or deleted. */
  onChanged: () => void;
}

interface TemplateDraft {
  name: string;
  kind: QuestionTemplateKind;
  description: string;
  promptTemplate: string;
}

const EMPTY_DRAFT: TemplateDraft = {
  name: '',
  kind: 'definition',
  description: '',
  promptTemplate: DEFAULT_PROMPT,
};

function draftOf(template: QuestionTemplate): TemplateDraft {
  return {
    name: template.name,
    kind: template.kind,
    description: template.description ?? '',
    promptTemplate: template.promptTemplate,
  };
}

/** What the form sends, or the sentence that says what is missing. */
function inputOf(draft: TemplateDraft): QuestionTemplateInput | string {
  if (!draft.name.trim()) return 'Give the template a name.';
  if (!draft.promptTemplate.trim()) return 'Write the prompt the generator uses.';
  return {
    name: draft.name.trim(),
    kind: draft.kind,
    description: draft.description.trim() ? draft.description.trim() : null,
    promptTemplate: draft.promptTemplate,
  };
}

interface TemplateFormProps {
  /** Prefix of the fields' ids, unique on the page. */
  idPrefix: string;
  label: string;
  initial: TemplateDraft;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (input: QuestionTemplateInput) => Promise<void>;
  onCancel?: () => void;
}

/** Name, kind, description and prompt of a template: the new-template form and each edit form. */
function TemplateForm({
  idPrefix,
  label,
  initial,
  submitLabel,
  busyLabel,
  onSubmit,
  onCancel,
}: TemplateFormProps) {
  const [draft, setDraft] = useState(initial);
  const save = useAction();
  const set = (change: Partial<TemplateDraft>) => setDraft((current) => ({ ...current, ...change }));
  return (
    <form
      className="form-grid"
      aria-label={label}
      onSubmit={async (event) => {
        event.preventDefault();
        const input = inputOf(draft);
        if (typeof input === 'string') {
          save.setError(input);
          return;
        }
        await save.run(
          async () => {
            await onSubmit(input);
            if (!onCancel) setDraft(initial);
          },
          `The template could not be ${onCancel ? 'saved' : 'created'}.`,
        );
      }}
    >
      <div className="field">
        <label htmlFor={`${idPrefix}-name`}>Name</label>
        <input
          id={`${idPrefix}-name`}
          required
          maxLength={200}
          value={draft.name}
          onChange={(e) => set({ name: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-kind`}>Kind</label>
        <select
          id={`${idPrefix}-kind`}
          value={draft.kind}
          onChange={(e) => set({ kind: e.target.value as QuestionTemplateKind })}
        >
          {QUESTION_TEMPLATE_KINDS.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </div>
      <div className="field field-wide">
        <label htmlFor={`${idPrefix}-description`}>Summary (optional)</label>
        <input
          id={`${idPrefix}-description`}
          maxLength={2000}
          value={draft.description}
          onChange={(e) => set({ description: e.target.value })}
        />
      </div>
      <div className="field field-wide">
        <label htmlFor={`${idPrefix}-prompt`}>Prompt</label>
        <textarea
          id={`${idPrefix}-prompt`}
          rows={4}
          required
          maxLength={8000}
          value={draft.promptTemplate}
          aria-describedby={`${idPrefix}-prompt-hint`}
          onChange={(e) => set({ promptTemplate: e.target.value })}
        />
        <p id={`${idPrefix}-prompt-hint`} className="field-hint">
          Placeholders: {'{{title}}'}, {'{{heading}}'}, {'{{passage}}'}, {'{{language}}'}.
        </p>
      </div>
      <ErrorNotice error={save.error} />
      <div className="form-actions field-wide">
        <button type="submit" className="button button-secondary" disabled={save.busy || !draft.name.trim()}>
          {save.busy ? busyLabel : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="button button-ghost" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** The templates banks are made from: edit or delete each, and a form to add one. */
export function TemplateManager({ templates, onChanged }: TemplateManagerProps) {
  const api = useApiClient();
  const [editing, setEditing] = useState<string | null>(null);
  const remove = useAction();

  return (
    <details className="card">
      <summary className="card-summary">
        <h2>Question templates</h2> <span className="muted">{templates.length}</span>
      </summary>
      <ErrorNotice error={remove.error} />
      {templates.length > 0 ? (
        <ul className="plain-list template-list" aria-label="Templates">
          {templates.map((template) => (
            <li key={template.id} data-template-id={template.id}>
              <div className="template-row">
                <span>
                  <strong>{template.name}</strong> <span className="chip">{template.kind}</span>
                  {template.description ? <span className="muted"> — {template.description}</span> : null}
                </span>
                <span className="actions">
                  <button
                    type="button"
                    className="button button-ghost button-small"
                    aria-label={`Edit template "${template.name}"`}
                    aria-expanded={editing === template.id}
                    onClick={() => setEditing(editing === template.id ? null : template.id)}
                  >
                    Edit
                  </button>
                  <ConfirmButton
                    label="Delete"
                    accessibleLabel={`Delete template "${template.name}"`}
                    question="Delete this template? Banks made from it keep their questions."
                    onConfirm={async () => {
                      await remove.run(async () => {
                        await api.deleteQuestionTemplate(template.id);
                        if (editing === template.id) setEditing(null);
                        onChanged();
                      }, 'The template could not be deleted.');
                    }}
                  />
                </span>
              </div>
              {editing === template.id ? (
                <TemplateForm
                  idPrefix={`template-${template.id}`}
                  label={`Edit template "${template.name}"`}
                  initial={draftOf(template)}
                  submitLabel="Save template"
                  busyLabel="Saving…"
                  onCancel={() => setEditing(null)}
                  onSubmit={async (input) => {
                    await api.updateQuestionTemplate(template.id, input);
                    setEditing(null);
                    onChanged();
                  }}
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="field-hint">No templates yet.</p>
      )}
      <h3>New template</h3>
      <TemplateForm
        idPrefix="template"
        label="New template"
        initial={EMPTY_DRAFT}
        submitLabel="Create template"
        busyLabel="Creating…"
        onSubmit={async (input) => {
          await api.createQuestionTemplate(input);
          onChanged();
        }}
      />
    </details>
  );
}

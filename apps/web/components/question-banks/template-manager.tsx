'use client';

import { QUESTION_TEMPLATE_KINDS, type QuestionTemplateKind } from '@lumina/shared';
import { useState } from 'react';
import { useAction } from '../../hooks/use-action';
import { useApiClient } from '../../lib/api-provider';
import type { QuestionTemplate } from '../../lib/api-types';
import { ErrorNotice } from '../ui/error-notice';

const DEFAULT_PROMPT =
  'Write one question that the passage below answers, in {{language}}.\n\nDocument: {{title}}\nSection: {{heading}}\n\n{{passage}}';

export interface TemplateManagerProps {
  templates: readonly QuestionTemplate[];
  onCreated: () => void;
}

/** The templates banks are made from, and a form to add one. */
export function TemplateManager({ templates, onCreated }: TemplateManagerProps) {
  const api = useApiClient();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<QuestionTemplateKind>('definition');
  const [prompt, setPrompt] = useState(DEFAULT_PROMPT);
  const save = useAction();

  return (
    <details className="card">
      <summary className="card-summary">
        <h2>Question templates</h2> <span className="muted">{templates.length}</span>
      </summary>
      {templates.length > 0 ? (
        <ul className="plain-list">
          {templates.map((template) => (
            <li key={template.id}>
              <strong>{template.name}</strong> <span className="chip">{template.kind}</span>
              {template.description ? <span className="muted"> — {template.description}</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="field-hint">No templates yet.</p>
      )}
      <form
        className="form-grid"
        aria-label="New template"
        onSubmit={async (event) => {
          event.preventDefault();
          await save.run(async () => {
            await api.createQuestionTemplate({ name: name.trim(), kind, promptTemplate: prompt });
            setName('');
            onCreated();
          }, 'The template could not be created.');
        }}
      >
        <h3>New template</h3>
        <div className="field">
          <label htmlFor="template-name">Name</label>
          <input
            id="template-name"
            required
            maxLength={200}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="template-kind">Kind</label>
          <select
            id="template-kind"
            value={kind}
            onChange={(e) => setKind(e.target.value as QuestionTemplateKind)}
          >
            {QUESTION_TEMPLATE_KINDS.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <div className="field field-wide">
          <label htmlFor="template-prompt">Prompt</label>
          <textarea
            id="template-prompt"
            rows={4}
            required
            value={prompt}
            aria-describedby="template-prompt-hint"
            onChange={(e) => setPrompt(e.target.value)}
          />
          <p id="template-prompt-hint" className="field-hint">
            Placeholders: {'{{title}}'}, {'{{heading}}'}, {'{{passage}}'}, {'{{language}}'}.
          </p>
        </div>
        <ErrorNotice error={save.error} />
        <div>
          <button type="submit" className="button button-secondary" disabled={save.busy || !name.trim()}>
            {save.busy ? 'Creating…' : 'Create template'}
          </button>
        </div>
      </form>
    </details>
  );
}

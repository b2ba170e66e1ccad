'use client';

import {
  QUESTION_DIFFICULTIES,
  type ExpectedSource,
  type QuestionBankItemInput,
  type QuestionDifficulty,
} from '@lumina/shared';
import { useEffect, useId, useState } from 'react';
import { useApiClient } from '../../hooks/use-api-client';
import {
  addSourceLine,
  EMPTY_DRAFT,
  inputFromDraft,
  parseSourcesText,
  removeSourceLine,
  type ItemDraft,
  type PickedSource,
} from '../../lib/item-form';
import { passageSourceLabel } from '../../lib/source-labels';
import { Notice } from '../ui/notice';
import { SourcePicker } from './source-picker';
import './question-banks.css';

export interface ItemFormProps {
  initial?: ItemDraft;
  submitLabel: string;
  /** Resolves to an error sentence, or null when saved. */
  onSubmit: (input: QuestionBankItemInput) => Promise<string | null>;
  onCancel?: () => void;
  /** The item's stored sources (with the document of each passage), named in the form once looked up. */
  knownSources?: readonly ExpectedSource[];
}

/**
 * Names of stored sources, by their line in the sources box: a passage as "Title › Heading — “first
 * words…”", a document as its title. One look-up per source; a source that can't be found keeps its id.
 */
function useKnownSourceLabels(sources: readonly ExpectedSource[]): Record<string, string> {
  const api = useApiClient();
  const [labels, setLabels] = useState<Record<string, string>>({});
  const key = sources.map((s) => `${s.documentId ?? ''}/${s.chunkId ?? ''}`).join(',');
  useEffect(() => {
    if (!key) return;
    const controller = new AbortController();
    const { signal } = controller;
    const titles = new Map<string, Promise<string>>();
    const titleOf = (documentId: string) => {
      if (!titles.has(documentId)) {
        titles.set(
          documentId,
          api.getDocument(documentId, { signal }).then((document) => document.title),
        );
      }
      return titles.get(documentId) as Promise<string>;
    };
    const lookUp = async (source: ExpectedSource): Promise<[string, string] | null> => {
      if (!source.documentId) return null;
      const title = await titleOf(source.documentId);
      if (!source.chunkId) return [source.documentId, `${title} (whole document)`];
      const page = await api.listChunks(source.documentId, { chunk: source.chunkId, limit: 1 }, { signal });
      const chunk = page.items.find((item) => item.id === source.chunkId);
      return chunk
        ? [`chunk:${source.chunkId}`, passageSourceLabel(title, chunk.headingPath, chunk.text)]
        : null;
    };
    void Promise.allSettled(sources.map(lookUp)).then((results) => {
      if (signal.aborted) return;
      const found: Record<string, string> = {};
      for (const result of results) {
        if (result.status === 'fulfilled' && result.value) found[result.value[0]] = result.value[1];
      }
      setLabels(found);
    });
    return () => controller.abort();
    // `key` stands for `sources` (a new array on every render of the list).
  }, [api, key]);
  return labels;
}

/** Add or edit one question: text, expected answer, scope, expected sources, tags. */
export function ItemForm({
  initial = EMPTY_DRAFT,
  submitLabel,
  onSubmit,
  onCancel,
  knownSources = [],
}: ItemFormProps) {
  const id = useId();
  const storedLabels = useKnownSourceLabels(knownSources);
  const [draft, setDraft] = useState<ItemDraft>(initial);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  /** Names of the sources picked from the library, by their line in the sources box. */
  const [labels, setLabels] = useState<Record<string, string>>({});
  const picked = (() => {
    const parsed = parseSourcesText(draft.sources);
    if ('error' in parsed) return [];
    return parsed.sources.flatMap((source): { source: PickedSource; ref: string }[] =>
      source.chunkId
        ? [{ source: { chunkId: source.chunkId }, ref: `chunk:${source.chunkId}` }]
        : source.documentId
          ? [{ source: { documentId: source.documentId }, ref: source.documentId }]
          : [],
    );
  })();
  const set = <K extends keyof ItemDraft>(key: K, value: ItemDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  return (
    <form
      className="form-grid item-form"
      aria-label={submitLabel}
      onSubmit={async (event) => {
        event.preventDefault();
        const result = inputFromDraft(draft);
        if ('error' in result) {
          setError(result.error);
          return;
        }
        setSaving(true);
        const problem = await onSubmit(result.input);
        setSaving(false);
        setError(problem);
        if (!problem && !onCancel) setDraft(EMPTY_DRAFT);
      }}
    >
      <div className="field field-wide">
        <label htmlFor={`${id}-question`}>Question</label>
        <textarea
          id={`${id}-question`}
          rows={2}
          required
          maxLength={4000}
          value={draft.question}
          onChange={(e) => set('question', e.target.value)}
        />
      </div>
      <div className="field field-wide">
        <label htmlFor={`${id}-answer`}>Expected answer (optional)</label>
        <input
          id={`${id}-answer`}
          value={draft.expectedAnswer}
          onChange={(e) => set('expectedAnswer', e.target.value)}
        />
      </div>
      <div className="field field-wide">
        <SourcePicker
          idPrefix={id}
          sources={draft.sources}
          onPick={(source, label) => {
            setDraft((d) => ({ ...d, sources: addSourceLine(d.sources, source) }));
            const ref = 'chunkId' in source ? `chunk:${source.chunkId}` : source.documentId;
            setLabels((known) => ({
              ...known,
              [ref]: 'chunkId' in source ? label : `${label} (whole document)`,
            }));
          }}
        />
        {picked.length > 0 ? (
          <ul className="picked-sources" aria-label="Expected sources picked">
            {picked.map(({ source, ref }) => (
              <li key={ref} className="chip">
                {labels[ref] ?? storedLabels[ref] ?? ref}
                <button
                  type="button"
                  className="button button-ghost button-small"
                  aria-label={`Remove ${labels[ref] ?? storedLabels[ref] ?? ref}`}
                  onClick={() => set('sources', removeSourceLine(draft.sources, source))}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className="field field-wide">
        <label htmlFor={`${id}-sources`}>Expected sources</label>
        <textarea
          id={`${id}-sources`}
          rows={2}
          value={draft.sources}
          aria-describedby={`${id}-sources-hint`}
          onChange={(e) => set('sources', e.target.value)}
        />
        <p id={`${id}-sources-hint`} className="field-hint">
          Filled by the search above, or typed: one a line, a document id (or its external id), or
          chunk:&lt;chunk id&gt;; add grade=2 for graded relevance.
        </p>
      </div>
      <div className="field field-toggle">
        <input
          id={`${id}-scope`}
          type="checkbox"
          className="switch"
          checked={draft.inScope}
          onChange={(e) => set('inScope', e.target.checked)}
        />
        <div className="field-text">
          <label htmlFor={`${id}-scope`}>In scope</label>
          <p className="field-hint">
            Off: the documents can&apos;t answer it, so the right outcome is a refusal.
          </p>
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-tags`}>Tags</label>
        <input
          id={`${id}-tags`}
          value={draft.tags}
          placeholder="comma, separated"
          onChange={(e) => set('tags', e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-difficulty`}>Difficulty</label>
        <select
          id={`${id}-difficulty`}
          value={draft.difficulty}
          onChange={(e) => set('difficulty', e.target.value as '' | QuestionDifficulty)}
        >
          <option value="">Not set</option>
          {QUESTION_DIFFICULTIES.map((level) => (
            <option key={level} value={level}>
              {level}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-language`}>Language</label>
        <input
          id={`${id}-language`}
          value={draft.language}
          maxLength={20}
          onChange={(e) => set('language', e.target.value)}
        />
      </div>
      {error ? (
        <div className="field-wide">
          <Notice tone="bad" alert>
            {error}
          </Notice>
        </div>
      ) : null}
      <div className="form-actions field-wide">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving…' : submitLabel}
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

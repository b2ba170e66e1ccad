'use client';

import type { Collection, FeedbackEntry, QuestionBank, QuestionBankItemInput } from '@lumina/shared';
import Link from 'next/link';
import { useId, useState } from 'react';
import { useApiClient } from '../../hooks/use-api-client';
import { isApiError } from '../../lib/api-errors';
import { excerpt, REASON_LABELS, searchedAsAsked } from '../../lib/feedback';
import { formatDateTime } from '../../lib/format';
import { EMPTY_DRAFT, sourcesToText } from '../../lib/item-form';
import { passageLabel } from '../../lib/source-labels';
import { StoredTrace } from '../chat/retrieval-panel';
import { ItemForm } from '../question-banks/item-form';
import { settingsLine } from '../settings/settings-summary';
import { ThumbIcon } from '../ui/thumb-icon';
import './feedback.css';

export interface FeedbackEntryCardProps {
  entry: FeedbackEntry;
  collections: readonly Collection[];
  banks: readonly QuestionBank[];
  selected: boolean;
  onSelect: (selected: boolean) => void;
  /** In scope (true), out of scope (false), or not decided yet (null). */
  scope: boolean | null;
  onScope: (scope: boolean) => void;
  /** After it became a bank item or was marked reviewed. */
  onChanged: () => void;
}

/** One rating with what a reviewer needs: question, answer, passages, settings, verdict and trace. */
export function FeedbackEntryCard({
  entry,
  collections,
  banks,
  selected,
  onSelect,
  scope,
  onScope,
  onChanged,
}: FeedbackEntryCardProps) {
  const api = useApiClient();
  const id = useId();
  const { feedback, answer } = entry;
  const [adding, setAdding] = useState(false);
  const [bankId, setBankId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const names = feedback.collectionIds.map(
    (collectionId) => collections.find((collection) => collection.id === collectionId)?.name ?? collectionId,
  );
  const question = entry.question ?? '(the question was deleted)';

  const markReviewed = async () => {
    setError(null);
    try {
      await api.markFeedbackReviewed(feedback.id);
      onChanged();
    } catch (caught) {
      setError(isApiError(caught) ? caught.message : 'The rating could not be marked reviewed.');
    }
  };

  const addToBank = async (input: QuestionBankItemInput): Promise<string | null> => {
    if (!bankId) return 'Choose the question bank first.';
    try {
      await api.feedbackToBank({
        bankId,
        entries: [
          {
            feedbackId: feedback.id,
            question: input.question,
            inScope: input.inScope ?? true,
            expectedSources: input.inScope === false ? [] : (input.expectedSources ?? []),
            ...(input.expectedAnswer ? { expectedAnswer: input.expectedAnswer } : {}),
            ...(input.tags?.length ? { tags: input.tags } : {}),
            ...(input.language ? { language: input.language } : {}),
            ...(input.difficulty ? { difficulty: input.difficulty } : {}),
          },
        ],
      });
      setAdding(false);
      onChanged();
      return null;
    } catch (caught) {
      return isApiError(caught) ? caught.message : 'The question could not be added.';
    }
  };

  return (
    <li
      className="card feedback-entry"
      data-feedback-id={feedback.id}
      data-rating={feedback.rating}
      aria-label={`Rating of the answer to “${excerpt(question, 80)}”`}
    >
      <div className="feedback-entry-head">
        <input
          type="checkbox"
          aria-label={`Select “${excerpt(question, 60)}” for a question bank`}
          checked={selected}
          disabled={entry.bankItem !== null}
          onChange={(event) => onSelect(event.target.checked)}
        />
        <span className={`chip ${feedback.rating === 'down' ? 'chip-bad' : 'chip-good'}`}>
          <ThumbIcon direction={feedback.rating} /> {feedback.rating === 'down' ? 'Thumbs down' : 'Thumbs up'}
        </span>
        {feedback.reasons.map((reason) => (
          <span key={reason} className="chip">
            {REASON_LABELS[reason]}
          </span>
        ))}
        <span className="muted">{formatDateTime(feedback.updatedAt)}</span>
        {names.length ? <span className="muted">in {names.join(', ')}</span> : null}
        {entry.bankItem ? (
          <Link className="chip chip-accent" href={`/question-banks/${entry.bankItem.bankId}`}>
            In a question bank
          </Link>
        ) : entry.reviewed ? (
          <span className="chip">Reviewed</span>
        ) : null}
      </div>

      <h2 className="feedback-question">{question}</h2>
      {searchedAsAsked(entry) ? null : <p className="field-hint">Searched as: “{entry.standaloneQuery}”</p>}
      <blockquote aria-label="The answer">
        {answer.notFound ? <strong>Not found. </strong> : null}
        {excerpt(answer.content, 600)}
      </blockquote>
      {feedback.note ? (
        <p>
          <strong>Note:</strong> {feedback.note}
        </p>
      ) : null}

      {entry.citedPassages.length ? (
        <>
          <h3 className="feedback-subhead">Cited passages</h3>
          <ol className="feedback-passages" aria-label="Cited passages">
            {entry.citedPassages.map((passage) => (
              <li key={`${passage.marker}-${passage.chunkId}`}>
                [{passage.marker}] {passageLabel(passage.title, passage.headingPath)}
                {passage.text ? (
                  <span className="muted"> — {excerpt(passage.text, 160)}</span>
                ) : (
                  ' (deleted since)'
                )}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {entry.topPassages.length ? (
        <details>
          <summary>Top passages of the search ({entry.topPassages.length})</summary>
          <ol className="feedback-passages" aria-label="Top passages">
            {entry.topPassages.map((passage) => (
              <li key={passage.chunkId}>
                {passage.title ? passageLabel(passage.title, passage.headingPath) : '(deleted since)'}{' '}
                <span className="muted">
                  score {passage.score.toFixed(3)}
                  {passage.cited ? ' · cited' : ''}
                </span>
                {passage.text ? <span className="muted"> — {excerpt(passage.text, 160)}</span> : null}
              </li>
            ))}
          </ol>
        </details>
      ) : null}

      <p className="field-hint">
        {entry.settings ? `Settings: ${settingsLine(entry.settings)}.` : 'No search (general knowledge).'}{' '}
        {entry.answerability
          ? `Answerability: ${entry.answerability.answerable ? 'answerable' : 'refused'} (${entry.answerability.score.toFixed(2)} vs ${entry.answerability.threshold.toFixed(2)}).`
          : null}
      </p>
      <details>
        <summary>Retrieval trace</summary>
        <StoredTrace messageId={answer.id} />
      </details>

      {entry.bankItem ? null : (
        <div className="form-actions">
          <label htmlFor={`${id}-scope`}>For a bank:</label>
          <select
            id={`${id}-scope`}
            value={scope === null ? '' : scope ? 'in' : 'out'}
            onChange={(event) => onScope(event.target.value === 'in')}
          >
            {scope === null ? <option value="">Decide the scope…</option> : null}
            <option value="in">In scope (the documents answer it)</option>
            <option value="out">Out of scope (it should be refused)</option>
          </select>
          <button
            type="button"
            className="button button-secondary button-small"
            aria-expanded={adding}
            onClick={() => setAdding((open) => !open)}
          >
            Add to question bank…
          </button>
          {entry.reviewed ? null : (
            <button
              type="button"
              className="button button-ghost button-small"
              onClick={() => void markReviewed()}
            >
              Mark reviewed
            </button>
          )}
        </div>
      )}
      {error ? (
        <p className="notice notice-bad" role="alert">
          {error}
        </p>
      ) : null}

      {adding ? (
        <div className="feedback-add" role="group" aria-label="Add to a question bank">
          <div className="field">
            <label htmlFor={`${id}-bank`}>Question bank</label>
            <BankChoice id={`${id}-bank`} banks={banks} value={bankId} onChange={setBankId} />
          </div>
          <ItemForm
            submitLabel="Add to the bank"
            initial={{
              ...EMPTY_DRAFT,
              question: entry.question ?? '',
              expectedAnswer: feedback.note ?? '',
              inScope: scope ?? true,
              sources: scope === false ? '' : sourcesToText(entry.proposedSources),
            }}
            knownSources={entry.proposedSources}
            onSubmit={addToBank}
            onCancel={() => setAdding(false)}
          />
        </div>
      ) : null}
    </li>
  );
}

/** Which question bank to add to. */
export function BankChoice({
  id,
  banks,
  value,
  onChange,
}: {
  id: string;
  banks: readonly QuestionBank[];
  value: string;
  onChange: (bankId: string) => void;
}) {
  return (
    <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">Choose…</option>
      {banks.map((bank) => (
        <option key={bank.id} value={bank.id}>
          {bank.name}
        </option>
      ))}
    </select>
  );
}

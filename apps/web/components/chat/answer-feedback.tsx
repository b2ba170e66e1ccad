'use client';

import { MAX_FEEDBACK_NOTE_CHARS } from '@lumina/shared';
import type { FeedbackReason } from '@lumina/shared';
import { useId, useState } from 'react';
import { useApiClient } from '../../hooks/use-api-client';
import { isApiError } from '../../lib/api-errors';
import { REASON_LABELS, ratingSummary, reasonsFor } from '../../lib/feedback';
import { chatStore } from '../../store/chat.store';
import { ThumbIcon } from '../ui/thumb-icon';
import type { AssistantTurn, TurnFeedback } from '../../store/chat.store';
import './chat.css';

export interface AnswerFeedbackProps {
  turn: AssistantTurn;
  /** The server's id of the answer: only a stored, complete answer can be rated. */
  messageId: string;
}

/**
 * Thumbs under an answer. Up is saved at once (pressed again, it is withdrawn); down opens a small form
 * for the reasons that fit the answer and a note of what it should have said. The rating stays shown.
 */
export function AnswerFeedback({ turn, messageId }: AnswerFeedbackProps) {
  const api = useApiClient();
  const id = useId();
  const current = turn.feedback;
  const [open, setOpen] = useState(false);
  const [reasons, setReasons] = useState<FeedbackReason[]>(current?.reasons ?? []);
  const [note, setNote] = useState(current?.note ?? '');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (next: TurnFeedback | null) => {
    setSaving(true);
    setError(null);
    try {
      if (next) {
        const saved = await api.rateAnswer(messageId, {
          rating: next.rating,
          ...(next.rating === 'down' ? { reasons: next.reasons } : {}),
          ...(next.note ? { note: next.note } : {}),
        });
        chatStore.getState().setFeedback(turn.id, {
          rating: saved.rating,
          reasons: saved.reasons,
          note: saved.note,
        });
      } else {
        await api.withdrawRating(messageId);
        chatStore.getState().setFeedback(turn.id, null);
      }
      setOpen(false);
    } catch (caught) {
      setError(isApiError(caught) ? caught.message : 'The rating could not be saved. Try again.');
    } finally {
      setSaving(false);
    }
  };

  const openForm = () => {
    setReasons(current?.rating === 'down' ? current.reasons : []);
    setNote(current?.note ?? '');
    setOpen(true);
  };

  return (
    <div className="answer-feedback" data-rating={current?.rating ?? 'none'}>
      <div className="answer-feedback-buttons" role="group" aria-label="Rate this answer">
        <button
          type="button"
          className="button button-ghost button-small"
          aria-pressed={current?.rating === 'up'}
          aria-label={current?.rating === 'up' ? 'Helpful (press to withdraw)' : 'Helpful'}
          disabled={saving}
          onClick={() =>
            void save(current?.rating === 'up' ? null : { rating: 'up', reasons: [], note: null })
          }
        >
          <ThumbIcon direction="up" />
        </button>
        <button
          type="button"
          className="button button-ghost button-small"
          aria-pressed={current?.rating === 'down'}
          aria-expanded={open}
          aria-controls={`${id}-form`}
          aria-label="Not helpful"
          disabled={saving}
          onClick={() => (open ? setOpen(false) : openForm())}
        >
          <ThumbIcon direction="down" />
        </button>
        {current && !open ? (
          <span className="field-hint answer-feedback-state" role="status">
            {ratingSummary(current.rating, current.reasons)}
            {current.rating === 'down' ? (
              <>
                {' '}
                <button type="button" className="link-button" onClick={openForm}>
                  Edit
                </button>{' '}
                <button type="button" className="link-button" onClick={() => void save(null)}>
                  Withdraw
                </button>
              </>
            ) : null}
          </span>
        ) : null}
      </div>

      {open ? (
        <form
          id={`${id}-form`}
          className="answer-feedback-form"
          aria-label="What was wrong with the answer"
          onSubmit={(event) => {
            event.preventDefault();
            void save({ rating: 'down', reasons, note: note.trim() || null });
          }}
        >
          <fieldset>
            <legend>What was wrong? (optional)</legend>
            {reasonsFor(turn.notFound).map((reason) => (
              <label key={reason} className="checkbox-label">
                <input
                  type="checkbox"
                  checked={reasons.includes(reason)}
                  onChange={(event) =>
                    setReasons((chosen) =>
                      event.target.checked ? [...chosen, reason] : chosen.filter((item) => item !== reason),
                    )
                  }
                />{' '}
                {REASON_LABELS[reason]}
              </label>
            ))}
          </fieldset>
          <label htmlFor={`${id}-note`}>What should it have said? (optional)</label>
          <textarea
            id={`${id}-note`}
            rows={2}
            maxLength={MAX_FEEDBACK_NOTE_CHARS}
            value={note}
            aria-describedby={`${id}-note-count`}
            onChange={(event) => setNote(event.target.value)}
          />
          <p id={`${id}-note-count`} className="field-hint">
            {note.length} / {MAX_FEEDBACK_NOTE_CHARS} characters. Reviewers may turn your rating into a test
            question, with this note as its expected answer.
          </p>
          <div className="form-actions">
            <button type="submit" className="button button-primary button-small" disabled={saving}>
              {saving ? 'Saving…' : 'Send rating'}
            </button>
            <button type="button" className="button button-ghost button-small" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}

      {error ? (
        <p className="field-hint answer-feedback-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

'use client';

import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import './chat.css';

export interface ComposerProps {
  busy: boolean;
  onSend: (question: string) => void;
  onStop: () => void;
}

/** The question box: Enter sends, Shift+Enter starts a new line; Stop aborts a streaming answer. */
export function Composer({ busy, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState('');
  const textarea = useRef<HTMLTextAreaElement>(null);
  const question = text.trim();
  const canSend = question.length > 0 && !busy;

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    onSend(question);
    setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
    if (event.key === 'Escape' && busy) {
      event.preventDefault();
      onStop();
    }
  };

  return (
    <form className="composer" onSubmit={submit}>
      <label htmlFor="question" className="composer-label">
        Ask a question about your documents
      </label>
      <div className="composer-row">
        <textarea
          ref={textarea}
          id="question"
          name="question"
          rows={2}
          value={text}
          placeholder="e.g. How many days of parental leave do we offer?"
          aria-describedby="question-hint"
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {busy ? (
          <button
            type="button"
            className="button button-danger composer-action"
            onClick={() => {
              onStop();
              textarea.current?.focus();
            }}
          >
            Stop
          </button>
        ) : (
          <button type="submit" className="button button-primary composer-action" disabled={!canSend}>
            Send
          </button>
        )}
      </div>
      <p id="question-hint" className="field-hint">
        Enter sends · Shift+Enter adds a new line{busy ? ' · Esc stops the answer' : ''}
      </p>
    </form>
  );
}

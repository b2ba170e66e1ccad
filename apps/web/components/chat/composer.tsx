'use client';

import { useState, type FormEvent, type KeyboardEvent } from 'react';

export interface ComposerProps {
  busy: boolean;
  onSend: (question: string) => void;
}

/** The question box: Enter sends, Shift+Enter starts a new line. */
export function Composer({ busy, onSend }: ComposerProps) {
  const [text, setText] = useState('');
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
  };

  return (
    <form className="composer" onSubmit={submit}>
      <label htmlFor="question" className="composer-label">
        Ask a question about your documents
      </label>
      <div className="composer-row">
        <textarea
          id="question"
          name="question"
          rows={2}
          value={text}
          placeholder="e.g. How many days of parental leave do we offer?"
          aria-describedby="question-hint"
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="button button-primary" disabled={!canSend}>
          {busy ? 'Searching…' : 'Send'}
        </button>
      </div>
      <p id="question-hint" className="field-hint">
        Enter sends · Shift+Enter adds a new line
      </p>
    </form>
  );
}

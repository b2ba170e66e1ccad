'use client';

import type { ReactNode } from 'react';
import './settings.css';

export interface ToggleFieldProps {
  id: string;
  label: string;
  hint?: string;
  /** A second line, e.g. what happens without a language model. */
  note?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/** A labelled checkbox drawn as a switch. */
export function ToggleField({ id, label, hint, note, checked, onChange }: ToggleFieldProps) {
  const hintId = `${id}-hint`;
  const noteId = `${id}-note`;
  const describedBy = [hint ? hintId : null, note ? noteId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field field-toggle">
      <input
        id={id}
        type="checkbox"
        className="switch"
        checked={checked}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.checked)}
      />
      <div className="field-text">
        <label htmlFor={id}>{label}</label>
        {hint ? (
          <p id={hintId} className="field-hint">
            {hint}
          </p>
        ) : null}
        {note ? (
          <p id={noteId} className="field-note">
            {note}
          </p>
        ) : null}
      </div>
    </div>
  );
}

'use client';

import type { EnhancementMode } from '@lumina/shared';
import type { ReactNode } from 'react';
import './settings.css';

const MODES: { mode: EnhancementMode; key: string; label: string }[] = [
  { mode: false, key: 'off', label: 'Off' },
  { mode: 'adaptive', key: 'adaptive', label: 'Adaptive' },
  { mode: true, key: 'on', label: 'On' },
];

export interface EnhancementFieldProps {
  id: string;
  label: string;
  hint?: string;
  /** A second line, e.g. what happens without a language model. */
  note?: ReactNode;
  value: EnhancementMode;
  onChange: (value: EnhancementMode) => void;
}

/**
 * An enhancement that costs model calls: off, on, or adaptive (run only when the original query's
 * ranking looks unsure, as the server's fitted expansion policy reads it). Three radios in a row.
 */
export function EnhancementField({ id, label, hint, note, value, onChange }: EnhancementFieldProps) {
  const hintId = `${id}-hint`;
  const noteId = `${id}-note`;
  const describedBy = [hint ? hintId : null, note ? noteId : null].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className="field field-enhancement" aria-describedby={describedBy}>
      <legend>{label}</legend>
      <div className="segmented" role="radiogroup" aria-label={label}>
        {MODES.map(({ mode, key, label: text }) => (
          <label key={key} className="segmented-option" htmlFor={`${id}-${key}`}>
            <input
              id={`${id}-${key}`}
              type="radio"
              name={id}
              value={key}
              checked={value === mode}
              onChange={() => onChange(mode)}
            />
            <span>{text}</span>
          </label>
        ))}
      </div>
      {hint ? (
        <p id={hintId} className="field-hint">
          {value === 'adaptive'
            ? `${hint} Adaptive: only when the original query's results look unsure; sure ones skip it and its model call.`
            : hint}
        </p>
      ) : null}
      {note ? (
        <p id={noteId} className="field-note">
          {note}
        </p>
      ) : null}
    </fieldset>
  );
}

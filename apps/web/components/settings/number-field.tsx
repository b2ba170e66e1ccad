'use client';

import { useState } from 'react';

export interface NumberFieldProps {
  id: string;
  label: string;
  hint?: string;
  value: number;
  min: number;
  max: number;
  disabled?: boolean;
  onChange: (value: number) => void;
}

/**
 * A whole-number input. Typing keeps a draft so the field can be empty for a moment; valid
 * numbers are applied at once, anything else is clamped or restored when the field loses focus.
 */
export function NumberField({ id, label, hint, value, min, max, disabled, onChange }: NumberFieldProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const hintId = `${id}-hint`;

  const commit = (text: string) => {
    const parsed = Number(text);
    if (text.trim() !== '' && Number.isFinite(parsed))
      onChange(Math.min(max, Math.max(min, Math.round(parsed))));
  };

  return (
    <div className="field field-number">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        disabled={disabled}
        value={draft ?? String(value)}
        aria-describedby={hintId}
        onChange={(event) => {
          setDraft(event.target.value);
          const parsed = event.target.valueAsNumber;
          if (Number.isInteger(parsed) && parsed >= min && parsed <= max) onChange(parsed);
        }}
        onBlur={() => {
          if (draft !== null) commit(draft);
          setDraft(null);
        }}
      />
      <p id={hintId} className="field-hint">
        {hint ? `${hint} ` : ''}
        {min}–{max}.
      </p>
    </div>
  );
}

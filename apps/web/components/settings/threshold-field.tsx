'use client';

import './settings.css';
export interface ThresholdFieldProps {
  id: string;
  label: string;
  hint?: string;
  value: number;
  min: number;
  max: number;
  step?: number;
  onChange: (value: number) => void;
}

/** A slider for a score between min and max, with its value spelled out beside it. */
export function ThresholdField({
  id,
  label,
  hint,
  value,
  min,
  max,
  step = 0.05,
  onChange,
}: ThresholdFieldProps) {
  const hintId = `${id}-hint`;
  const shown = value.toFixed(2);
  return (
    <div className="field field-range">
      <div className="field-range-head">
        <label htmlFor={id}>{label}</label>
        <output htmlFor={id} className="field-value">
          {shown}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        aria-valuetext={value === 0 ? '0, keeps everything' : shown}
        aria-describedby={hint ? hintId : undefined}
        onChange={(event) => onChange(Number(event.target.value))}
      />
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

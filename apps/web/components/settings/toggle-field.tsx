'use client';

export interface ToggleFieldProps {
  id: string;
  label: string;
  hint?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/** A labelled checkbox drawn as a switch. */
export function ToggleField({ id, label, hint, checked, onChange }: ToggleFieldProps) {
  const hintId = `${id}-hint`;
  return (
    <div className="field field-toggle">
      <input
        id={id}
        type="checkbox"
        className="switch"
        checked={checked}
        aria-describedby={hint ? hintId : undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
      <div className="field-text">
        <label htmlFor={id}>{label}</label>
        {hint ? (
          <p id={hintId} className="field-hint">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}

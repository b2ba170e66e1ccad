'use client';

import { useState } from 'react';
import './ui.css';

export interface ConfirmButtonProps {
  /** Visible label, e.g. "Delete". */
  label: string;
  /** Accessible name, e.g. 'Delete "Handbook"'. */
  accessibleLabel?: string;
  question: string;
  confirmLabel?: string;
  disabled?: boolean;
  onConfirm: () => void | Promise<void>;
}

/** A destructive action that asks once, inline (no browser confirm box). */
export function ConfirmButton({
  label,
  accessibleLabel,
  question,
  confirmLabel = label,
  disabled,
  onConfirm,
}: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const [working, setWorking] = useState(false);
  if (!asking) {
    return (
      <button
        type="button"
        className="button button-ghost button-small"
        aria-label={accessibleLabel}
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={question}>
      <span className="confirm-question">{question}</span>
      <button
        type="button"
        className="button button-danger button-small"
        disabled={working}
        onClick={async () => {
          setWorking(true);
          try {
            await onConfirm();
          } finally {
            setWorking(false);
            setAsking(false);
          }
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="button button-ghost button-small" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

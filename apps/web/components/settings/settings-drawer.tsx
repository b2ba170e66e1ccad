'use client';

import { useEffect, useRef } from 'react';
import { SettingsForm } from './settings-form';
import './settings.css';

export interface SettingsDrawerProps {
  id: string;
  open: boolean;
  onClose: () => void;
}

/**
 * A modal side panel built on <dialog>: the browser traps focus, closes it on Escape and
 * returns focus to the button that opened it.
 */
export function SettingsDrawer({ id, open, onClose }: SettingsDrawerProps) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      id={id}
      className="drawer"
      aria-labelledby={`${id}-title`}
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="drawer-panel">
        <header className="drawer-header">
          <h2 id={`${id}-title`}>Retrieval settings</h2>
          <button type="button" className="button button-ghost" onClick={onClose} aria-label="Close settings">
            Close
          </button>
        </header>
        <SettingsForm />
      </div>
    </dialog>
  );
}

'use client';

import { useEffect, useRef, useState } from 'react';
import { useCredentials } from '../../store/credentials.store';

/** "Admin key": for servers with ADMIN_API_KEY; kept for this tab only and sent as a header. */
export function AdminKey() {
  const adminKey = useCredentials((state) => state.adminKey);
  const setAdminKey = useCredentials((state) => state.setAdminKey);
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState('');
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <>
      <button
        type="button"
        className="button button-ghost button-small admin-key-button"
        aria-haspopup="dialog"
        onClick={() => {
          setDraft('');
          setOpen(true);
        }}
      >
        Admin key{adminKey ? <span className="muted"> (set)</span> : null}
      </button>
      <dialog
        ref={ref}
        className="modal"
        aria-labelledby="admin-key-title"
        onClose={() => setOpen(false)}
        onClick={(event) => {
          if (event.target === event.currentTarget) setOpen(false);
        }}
      >
        <form
          className="modal-panel"
          onSubmit={(event) => {
            event.preventDefault();
            setAdminKey(draft);
            setOpen(false);
          }}
        >
          <h2 id="admin-key-title">Admin key</h2>
          <p className="field-hint">
            Servers started with ADMIN_API_KEY ask for it to change question banks, templates and evaluations.
            It is kept in this tab only and sent as a request header, never in an address.
          </p>
          <div className="field">
            <label htmlFor="admin-key-input">Key</label>
            <input
              id="admin-key-input"
              type="password"
              autoComplete="off"
              value={draft}
              placeholder={adminKey ? 'A key is set; type a new one to replace it' : ''}
              onChange={(event) => setDraft(event.target.value)}
            />
          </div>
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={!draft.trim()}>
              Save
            </button>
            {adminKey ? (
              <button
                type="button"
                className="button button-secondary"
                onClick={() => {
                  setAdminKey(null);
                  setOpen(false);
                }}
              >
                Forget the key
              </button>
            ) : null}
            <button type="button" className="button button-ghost" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

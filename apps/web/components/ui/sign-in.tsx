'use client';

import { useEffect, useRef, useState } from 'react';
import { createApiClient } from '../../lib/api-client';
import { ApiError } from '../../lib/api-errors';
import { useApiClient } from '../../hooks/use-api-client';
import { useIdentity } from '../../hooks/use-identity';
import { useCredentials } from '../../store/credentials.store';
import { keepIdentity } from '../../store/identity.store';
import './ui.css';

/**
 * "Sign in": the API key every request carries (servers with ADMIN_API_KEY need one). A key is checked
 * with GET /auth/me before it is kept; it is kept for this tab only and sent as a header, never in an
 * address. The button shows whom the server sees.
 */
export function SignIn() {
  const client = useApiClient();
  const apiKey = useCredentials((state) => state.apiKey);
  const setApiKey = useCredentials((state) => state.setApiKey);
  // Whom the server sees with the current key (or, without one, on a local server).
  const { identity } = useIdentity();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState('');
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  async function signIn(key: string) {
    setChecking(true);
    setProblem(null);
    try {
      const probe = createApiClient({ baseUrl: client.baseUrl, apiKey: () => key });
      const found = await probe.getIdentity();
      keepIdentity(found, key);
      setApiKey(key);
      setOpen(false);
    } catch (error) {
      setProblem(
        error instanceof ApiError && error.status === 401
          ? 'The server does not know this key, or it was revoked. Check it and try again.'
          : error instanceof Error
            ? error.message
            : 'The key could not be checked.',
      );
    } finally {
      setChecking(false);
    }
  }

  const signedIn = apiKey && identity;
  // A local server needs no key: the button stays, quiet, for the rare person who has one.
  const local = !signedIn && identity?.mode === 'local';
  return (
    <>
      {local ? (
        <span className="local-mode-label muted" title="This server runs without API keys (local mode).">
          Local mode
        </span>
      ) : null}
      <button
        type="button"
        className={`button button-ghost button-small sign-in-button${local ? ' sign-in-quiet' : ''}`}
        data-local={local ? 'true' : undefined}
        aria-haspopup="dialog"
        onClick={() => {
          setDraft('');
          setProblem(null);
          setOpen(true);
        }}
      >
        {signedIn ? (
          <>
            Signed in as {identity.name} <span className="muted">({identity.role})</span>
          </>
        ) : (
          'Sign in'
        )}
      </button>
      <dialog
        ref={ref}
        className="modal"
        aria-labelledby="sign-in-title"
        onClose={() => setOpen(false)}
        onClick={(event) => {
          if (event.target === event.currentTarget) setOpen(false);
        }}
      >
        <form
          className="modal-panel"
          onSubmit={(event) => {
            event.preventDefault();
            void signIn(draft.trim());
          }}
        >
          <h2 id="sign-in-title">Sign in with an API key</h2>
          <p className="field-hint">
            Servers started with ADMIN_API_KEY need an API key for every request; an admin creates one for
            you. User keys chat and search in the collections granted to them, and with a write grant also
            manage that collection&apos;s documents, question banks and evaluations; admin keys reach every
            collection and manage API keys. The key is kept in this tab only and sent as a request header,
            never in an address.
          </p>
          {identity ? (
            <p className="field-hint" data-testid="sign-in-identity">
              {apiKey
                ? `Signed in as “${identity.name}” (${identity.role} key).`
                : `This server runs in local mode: this machine acts as “${identity.name}” (${identity.role}).`}
            </p>
          ) : null}
          <div className="field">
            <label htmlFor="sign-in-key">API key</label>
            <input
              id="sign-in-key"
              type="password"
              autoComplete="off"
              value={draft}
              placeholder={apiKey ? 'A key is set; type another to switch' : 'lum_…'}
              onChange={(event) => setDraft(event.target.value)}
            />
          </div>
          {problem ? (
            <p className="notice notice-bad" role="alert">
              {problem}
            </p>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={!draft.trim() || checking}>
              {checking ? 'Checking…' : 'Sign in'}
            </button>
            {apiKey ? (
              <button
                type="button"
                className="button button-secondary"
                onClick={() => {
                  setApiKey(null);
                  setOpen(false);
                }}
              >
                Sign out
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

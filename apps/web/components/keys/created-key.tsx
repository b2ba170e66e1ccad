'use client';

import type { Collection, CreatedApiKey } from '@lumina/shared';
import { useEffect, useRef, useState } from 'react';
import { useApiClient } from '../../hooks/use-api-client';
import { connectSnippets } from '../../lib/connect-snippets';
import { grantLabels, keyReachLabel, roleLabel, SHOWN_ONCE_NOTE } from '../../lib/keys';
import { Notice } from '../ui/notice';
import './keys.css';

export interface CreatedKeyProps {
  created: CreatedApiKey;
  collections: Collection[] | null;
  onDone: () => void;
}

/** The key just created, shown this once, with a Copy button. */
export function CreatedKey({ created, collections, onDone }: CreatedKeyProps) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const field = useRef<HTMLInputElement>(null);
  const snippets = connectSnippets(useApiClient().baseUrl, created.key);

  // The key is what the person came for: focus it (selected) so it can be copied at once.
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, [created.key]);

  const reach =
    keyReachLabel(created) ??
    grantLabels(created.grants, collections)
      .map((grant) => grant.label)
      .join(', ');

  return (
    <div className="created-key" data-testid="created-key">
      <h3>
        {roleLabel(created.role)} key “{created.name}” created
      </h3>
      <Notice tone="warn">
        <strong>Shown only now.</strong> {SHOWN_ONCE_NOTE}
      </Notice>
      <div className="created-key-value">
        <label htmlFor="created-key-value" className="visually-hidden">
          The new API key
        </label>
        <input
          ref={field}
          id="created-key-value"
          className="mono"
          readOnly
          spellCheck={false}
          autoComplete="off"
          value={created.key}
          onFocus={(event) => event.target.select()}
        />
        <button
          type="button"
          className="button button-primary button-small"
          onClick={() => {
            navigator.clipboard.writeText(created.key).then(
              () => setCopied('copied'),
              () => setCopied('failed'),
            );
          }}
        >
          {copied === 'copied' ? 'Copied' : 'Copy'}
        </button>
      </div>
      {copied === 'failed' ? (
        <p className="field-hint" role="alert">
          The browser did not allow copying: select the key and copy it by hand.
        </p>
      ) : copied === 'copied' ? (
        <p className="field-hint" role="status">
          The key is on the clipboard.
        </p>
      ) : null}
      <p className="field-hint">Collections: {reach}.</p>
      <details className="connect-snippets" data-testid="connect-snippets">
        <summary>Use this key from other tools</summary>
        <p className="field-hint">
          OpenAI-compatible clients (Open WebUI, LibreChat, the <code>openai</code> package): base URL{' '}
          <code data-testid="openai-base-url">{snippets.openAiBaseUrl}</code>, this key as the API key, model{' '}
          <code>lumina</code> (or <code>lumina:&lt;collection slug&gt;</code>).
        </p>
        <p className="field-hint">MCP clients that connect to a URL:</p>
        <pre className="mono">{snippets.mcpHttp}</pre>
        <p className="field-hint">
          Claude Desktop or Cursor, starting the command of this checkout (its path in place of
          /path/to/lumina):
        </p>
        <pre className="mono">{snippets.mcpStdio}</pre>
      </details>
      <div className="form-actions">
        <button type="button" className="button button-secondary" onClick={onDone}>
          Done, I have kept the key
        </button>
      </div>
    </div>
  );
}

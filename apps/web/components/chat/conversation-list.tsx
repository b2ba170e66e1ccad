'use client';

import { useEffect, useState } from 'react';
import type { Conversation } from '@lumina/shared';
import { formatRelative } from '../../lib/format';
import { useChatStore } from '../../store/chat.store';
import './chat.css';

export interface ConversationListProps {
  /** False when the server has no conversation endpoints. */
  available: boolean;
  canRename: boolean;
  canDelete: boolean;
  busy: boolean;
  onNew: () => void;
  onOpen: (conversation: Conversation) => void;
  onRename: (conversation: Conversation, title: string) => Promise<string | null>;
  onDelete: (conversation: Conversation) => Promise<string | null>;
  onRetry: () => void;
  /** The search text the list is filtered by ('' for every conversation). */
  query: string;
  /** Called (debounced) with new search text. */
  onSearch: (query: string) => void;
}

const SEARCH_DELAY_MS = 250;

function ConversationRow({
  conversation,
  active,
  canRename,
  canDelete,
  busy,
  onOpen,
  onRename,
  onDelete,
}: {
  conversation: Conversation;
  active: boolean;
  canRename: boolean;
  canDelete: boolean;
  busy: boolean;
  onOpen: () => void;
  onRename: (title: string) => Promise<string | null>;
  onDelete: () => Promise<string | null>;
}) {
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm-delete'>('view');
  // A question of only spaces makes an empty title.
  const name = conversation.title.trim() || 'Untitled conversation';
  const [title, setTitle] = useState(name);
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const labelId = `conversation-${conversation.id}`;

  const act = async (action: () => Promise<string | null>) => {
    setWorking(true);
    const problem = await action();
    setWorking(false);
    setError(problem);
    if (!problem) setMode('view');
  };

  return (
    <li className="conversation" data-active={active ? 'true' : undefined}>
      {mode === 'rename' ? (
        <form
          className="conversation-rename"
          onSubmit={(event) => {
            event.preventDefault();
            if (title.trim()) void act(() => onRename(title.trim()));
          }}
        >
          <label htmlFor={`${labelId}-title`} className="visually-hidden">
            New name
          </label>
          <input
            id={`${labelId}-title`}
            value={title}
            maxLength={80}
            autoFocus
            onChange={(event) => setTitle(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setMode('view');
            }}
          />
          <button
            type="submit"
            className="button button-primary button-small"
            disabled={working || !title.trim()}
          >
            Save
          </button>
          <button type="button" className="button button-ghost button-small" onClick={() => setMode('view')}>
            Cancel
          </button>
        </form>
      ) : (
        <button
          type="button"
          className="conversation-open"
          aria-current={active ? 'true' : undefined}
          onClick={onOpen}
          disabled={busy}
          id={labelId}
        >
          <span className="conversation-title">{name}</span>
          <span className="conversation-time">{formatRelative(conversation.updatedAt)}</span>
        </button>
      )}
      {mode === 'view' ? (
        <div className="conversation-actions">
          {canRename ? (
            <button
              type="button"
              className="button button-ghost button-small"
              aria-label={`Rename "${name}"`}
              onClick={() => {
                setTitle(name);
                setMode('rename');
              }}
            >
              Rename
            </button>
          ) : null}
          {canDelete ? (
            <button
              type="button"
              className="button button-ghost button-small"
              aria-label={`Delete "${name}"`}
              onClick={() => setMode('confirm-delete')}
              disabled={busy && active}
            >
              Delete
            </button>
          ) : null}
        </div>
      ) : null}
      {mode === 'confirm-delete' ? (
        <div className="conversation-confirm" role="group" aria-label="Confirm deletion">
          <span>Delete this conversation?</span>
          <button
            type="button"
            className="button button-danger button-small"
            disabled={working}
            onClick={() => void act(onDelete)}
          >
            Delete
          </button>
          <button type="button" className="button button-ghost button-small" onClick={() => setMode('view')}>
            Keep
          </button>
        </div>
      ) : null}
      {error ? (
        <p className="notice notice-bad" role="alert">
          {error}
        </p>
      ) : null}
    </li>
  );
}

/** The person's conversations: start a new one, open, rename, delete. */
export function ConversationList({
  available,
  canRename,
  canDelete,
  busy,
  onNew,
  onOpen,
  onRename,
  onDelete,
  onRetry,
  query,
  onSearch,
}: ConversationListProps) {
  const [text, setText] = useState(query);
  useEffect(() => {
    if (text.trim() === query) return;
    const timer = setTimeout(() => onSearch(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, query, onSearch]);
  const conversations = useChatStore((state) => state.conversations);
  const loadState = useChatStore((state) => state.conversationsState);
  const error = useChatStore((state) => state.conversationsError);
  const activeId = useChatStore((state) => state.conversationId);

  return (
    <nav className="conversations" aria-label="Conversations">
      <div className="conversations-head">
        <h2>Conversations</h2>
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={onNew}
          disabled={busy}
        >
          New conversation
        </button>
      </div>
      {available ? (
        <div className="conversation-search">
          <label htmlFor="conversation-search" className="visually-hidden">
            Search conversations
          </label>
          <input
            id="conversation-search"
            type="search"
            placeholder="Search titles and messages"
            value={text}
            maxLength={200}
            onChange={(event) => setText(event.target.value)}
          />
        </div>
      ) : null}
      {!available ? (
        <p className="field-hint">
          This server doesn&apos;t keep conversations yet, so they are not listed here.
        </p>
      ) : loadState === 'error' ? (
        <div className="notice notice-bad" role="alert">
          <p>{error}</p>
          <button type="button" className="button button-secondary button-small" onClick={onRetry}>
            Try again
          </button>
        </div>
      ) : loadState === 'loading' && conversations.length === 0 ? (
        <p className="field-hint">Loading conversations…</p>
      ) : conversations.length === 0 && query ? (
        <p className="field-hint" role="status">
          No conversation mentions “{query}”.
        </p>
      ) : conversations.length === 0 ? (
        <p className="field-hint">No conversations yet. Ask a question to start one.</p>
      ) : (
        <ul className="conversation-list">
          {conversations.map((conversation) => (
            <ConversationRow
              key={conversation.id}
              conversation={conversation}
              active={conversation.id === activeId}
              canRename={canRename}
              canDelete={canDelete}
              busy={busy}
              onOpen={() => onOpen(conversation)}
              onRename={(title) => onRename(conversation, title)}
              onDelete={() => onDelete(conversation)}
            />
          ))}
        </ul>
      )}
    </nav>
  );
}

'use client';

import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { useChatStore, type AssistantTurn, type UserTurn } from '../../store/chat.store';
import { AssistantMessage } from './assistant-message';
import './chat.css';

export interface MessageListProps {
  busy: boolean;
  onOpenCitation: (turn: AssistantTurn, marker: number, markerIndex: number) => void;
  onRetry: (turn: AssistantTurn) => void;
  onAnswerGenerally: (turn: AssistantTurn) => void;
  /** Asks an answer's question again in its place (absent: the server cannot). */
  onRegenerate?: (turn: AssistantTurn) => void;
  /** Sends an edited question in place of the stored one (and drops what followed it). */
  onEdit: (userTurnId: string, text: string) => void;
}

/**
 * Keeps the newest text in view while it streams, unless the person scrolled up to read; a new question
 * (a new turn) always scrolls to its answer.
 */
function useFollowBottom(dependency: unknown, turnCount: number) {
  const endRef = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  useEffect(() => {
    const onScroll = () => {
      const distance = document.documentElement.scrollHeight - window.innerHeight - window.scrollY;
      following.current = distance < 160;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  const seenTurns = useRef(turnCount);
  useEffect(() => {
    if (turnCount > seenTurns.current) following.current = true;
    seenTurns.current = turnCount;
    if (following.current) endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [dependency, turnCount]);
  return endRef;
}

/** A question, with an Edit button that sends a changed question in its place. */
function UserMessage({
  turn,
  busy,
  canEdit,
  onEdit,
}: {
  turn: UserTurn;
  busy: boolean;
  canEdit: boolean;
  onEdit: (text: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(turn.text);
  const fieldId = `edit-${turn.id}`;
  if (editing) {
    return (
      <li className="message message-user" data-editing="true">
        <form
          className="message-edit"
          onSubmit={(event) => {
            event.preventDefault();
            if (!text.trim()) return;
            setEditing(false);
            onEdit(text.trim());
          }}
        >
          <label htmlFor={fieldId} className="visually-hidden">
            Edit the question
          </label>
          <textarea
            id={fieldId}
            value={text}
            rows={3}
            autoFocus
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setEditing(false);
            }}
          />
          <p className="field-hint">Sending replaces this question and everything after it.</p>
          <div className="message-actions">
            <button
              type="submit"
              className="button button-primary button-small"
              disabled={busy || !text.trim()}
            >
              Send
            </button>
            <button
              type="button"
              className="button button-ghost button-small"
              onClick={() => setEditing(false)}
            >
              Cancel
            </button>
          </div>
        </form>
      </li>
    );
  }
  return (
    <li className="message message-user">
      <span className="visually-hidden">You asked: </span>
      <p className="message-text">{turn.text}</p>
      {canEdit ? (
        <div className="message-actions">
          <button
            type="button"
            className="button button-ghost button-small"
            disabled={busy}
            onClick={() => {
              setText(turn.text);
              setEditing(true);
            }}
          >
            Edit
          </button>
        </div>
      ) : null}
    </li>
  );
}

export function MessageList({
  busy,
  onOpenCitation,
  onRetry,
  onAnswerGenerally,
  onRegenerate,
  onEdit,
}: MessageListProps) {
  const turns = useChatStore((state) => state.turns);
  const conversationId = useChatStore((state) => state.conversationId);
  const last = turns.at(-1);
  const endRef = useFollowBottom(
    last ? `${last.id}:${last.role === 'assistant' ? last.text.length + last.phase : ''}` : '',
    turns.length,
  );
  const lastAnswerId = [...turns]
    .reverse()
    .find((turn) => turn.role === 'assistant' && turn.kind === 'documents')?.id;
  const answeredGenerally = new Set(
    turns.flatMap((turn) =>
      turn.role === 'assistant' && turn.kind === 'general' && turn.replyTo ? [turn.replyTo] : [],
    ),
  );

  return (
    <div className="message-area">
      {turns.length === 0 ? (
        <div className="empty-state">
          <p>Ask anything about your documents. Answers cite the exact passages they come from.</p>
          <p className="field-hint empty-documents-hint">
            If the documents don&apos;t cover it, Lumina says so instead of guessing. No documents yet?{' '}
            <Link href="/documents">Upload them on the Documents page</Link>.
          </p>
        </div>
      ) : null}
      <ol className="message-list" role="log" aria-label="Conversation">
        {turns.map((turn) =>
          turn.role === 'user' ? (
            <UserMessage
              key={turn.id}
              turn={turn}
              busy={busy}
              canEdit={Boolean(turn.messageId && conversationId && onRegenerate)}
              onEdit={(text) => onEdit(turn.id, text)}
            />
          ) : (
            <AssistantMessage
              key={turn.id}
              turn={turn}
              busy={busy}
              canAnswerGenerally={Boolean(turn.messageId && conversationId)}
              answeredGenerally={answeredGenerally.has(turn.id)}
              onOpenCitation={onOpenCitation}
              onRetry={onRetry}
              onAnswerGenerally={onAnswerGenerally}
              onRegenerate={
                onRegenerate && turn.id === lastAnswerId && conversationId
                  ? () => onRegenerate(turn)
                  : undefined
              }
            />
          ),
        )}
      </ol>
      <div ref={endRef} className="scroll-anchor" />
    </div>
  );
}

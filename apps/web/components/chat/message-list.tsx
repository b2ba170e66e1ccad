'use client';

import { useEffect, useRef } from 'react';
import { useChatStore, type AssistantTurn } from '../../store/chat.store';
import { AssistantMessage } from './assistant-message';

export interface MessageListProps {
  busy: boolean;
  onOpenCitation: (turn: AssistantTurn, marker: number, markerIndex: number) => void;
  onRetry: (turn: AssistantTurn) => void;
  onAnswerGenerally: (turn: AssistantTurn) => void;
}

/** Keeps the newest text in view while it streams, unless the person scrolled up to read. */
function useFollowBottom(dependency: unknown) {
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
  useEffect(() => {
    if (following.current) endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [dependency]);
  return endRef;
}

export function MessageList({ busy, onOpenCitation, onRetry, onAnswerGenerally }: MessageListProps) {
  const turns = useChatStore((state) => state.turns);
  const conversationId = useChatStore((state) => state.conversationId);
  const last = turns.at(-1);
  const endRef = useFollowBottom(
    last ? `${last.id}:${last.role === 'assistant' ? last.text.length + last.phase : ''}` : '',
  );
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
          <p className="field-hint">
            If the documents don&apos;t cover it, Lumina says so instead of guessing.
          </p>
        </div>
      ) : null}
      <ol className="message-list" role="log" aria-label="Conversation">
        {turns.map((turn) =>
          turn.role === 'user' ? (
            <li key={turn.id} className="message message-user">
              <span className="visually-hidden">You asked: </span>
              <p className="message-text">{turn.text}</p>
            </li>
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
            />
          ),
        )}
      </ol>
      <div ref={endRef} className="scroll-anchor" />
    </div>
  );
}

'use client';

import { useEffect, useRef } from 'react';
import { useChatStore } from '../../store/chat.store';
import { MessageItem } from './message-item';

export function MessageList() {
  const messages = useChatStore((state) => state.messages);
  const endRef = useRef<HTMLDivElement>(null);
  const last = messages.at(-1);

  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'end', behavior: 'smooth' });
  }, [last?.id, last?.status]);

  return (
    <div className="message-area">
      {messages.length === 0 ? (
        <div className="empty-state">
          <p>Ask anything about your documents. Answers cite the exact passages they come from.</p>
          <p className="field-hint">
            If the documents don&apos;t cover it, Lumina says so instead of guessing.
          </p>
        </div>
      ) : null}
      <ol className="message-list" role="log" aria-label="Conversation" aria-live="polite">
        {messages.map((message) => (
          <MessageItem key={message.id} message={message} />
        ))}
      </ol>
      <div ref={endRef} />
    </div>
  );
}

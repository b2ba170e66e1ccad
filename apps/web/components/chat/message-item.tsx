import type { ChatMessage } from '../../store/chat.store';
import { PassageCard } from './passage-card';
import { SearchDetails } from './search-details';

export interface MessageItemProps {
  message: ChatMessage;
}

export function MessageItem({ message }: MessageItemProps) {
  if (message.role === 'user') {
    return (
      <li className="message message-user">
        <span className="visually-hidden">You asked: </span>
        <p className="message-text">{message.text}</p>
      </li>
    );
  }

  const { search } = message;
  return (
    <li
      className="message message-assistant"
      data-status={message.status}
      aria-busy={message.status === 'pending'}
    >
      <span className="visually-hidden">Lumina: </span>
      {message.status === 'error' ? (
        <p className="message-error" role="alert">
          {message.error ?? message.text}
        </p>
      ) : (
        <p className="message-text">{message.text}</p>
      )}
      {search && search.warnings.length > 0 ? (
        <ul className="message-warnings" aria-label="Warnings">
          {search.warnings.map((warning, index) => (
            <li key={`${index}-${warning}`}>{warning}</li>
          ))}
        </ul>
      ) : null}
      {search && search.results.length > 0 && !search.belowThreshold ? (
        <ol className="passages" aria-label="Top passages">
          {search.results.map((result, index) => (
            <li key={`${result.chunkId}-${index}`}>
              <PassageCard result={result} position={index + 1} />
            </li>
          ))}
        </ol>
      ) : null}
      {search ? <SearchDetails search={search} /> : null}
    </li>
  );
}

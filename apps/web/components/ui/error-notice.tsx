import { Notice } from './notice';

export interface ErrorNoticeProps {
  /** The sentence to show; nothing is drawn while there is none. */
  error: string | null;
  onRetry?: () => void;
}

/** A failure, said out loud when it appears, with "Try again" when there is a way to retry. */
export function ErrorNotice({ error, onRetry }: ErrorNoticeProps) {
  if (!error) return null;
  return (
    <Notice tone="bad" alert onRetry={onRetry}>
      {error}
    </Notice>
  );
}

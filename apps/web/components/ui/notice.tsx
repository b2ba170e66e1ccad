import type { ReactNode } from 'react';

export interface NoticeProps {
  tone?: 'info' | 'bad' | 'good' | 'warn';
  children: ReactNode;
  /** Say it out loud when it appears (errors). */
  alert?: boolean;
  onRetry?: () => void;
  retryLabel?: string;
}

export function Notice({ tone = 'info', children, alert, onRetry, retryLabel = 'Try again' }: NoticeProps) {
  return (
    <div className={`notice notice-${tone}`} role={alert ? 'alert' : undefined}>
      <div>{children}</div>
      {onRetry ? (
        <button type="button" className="button button-secondary button-small" onClick={onRetry}>
          {retryLabel}
        </button>
      ) : null}
    </div>
  );
}

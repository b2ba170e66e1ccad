export type StatusTone = 'good' | 'warn' | 'bad' | 'unknown';

export interface StatusPillProps {
  label: string;
  value: string;
  tone: StatusTone;
  /** Longer explanation shown on hover. */
  title?: string;
}

/** One service's state: a coloured dot plus words, so colour is never the only signal. */
export function StatusPill({ label, value, tone, title }: StatusPillProps) {
  return (
    <span className="status-pill" data-tone={tone} title={title}>
      <span className="status-dot" aria-hidden="true" />
      <span className="status-label">{label}</span> <span className="status-value">{value}</span>
    </span>
  );
}

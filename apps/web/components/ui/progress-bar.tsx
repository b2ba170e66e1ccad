export interface ProgressBarProps {
  /** 0..1 */
  value: number;
  label: string;
  /** Spoken and shown beside the bar, e.g. "Embedding passages: 12 of 40". */
  text: string;
  tone?: 'normal' | 'good' | 'bad';
}

export function ProgressBar({ value, label, text, tone = 'normal' }: ProgressBarProps) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div className="progress" data-tone={tone}>
      <div
        className="progress-track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
      >
        <div className="progress-fill" style={{ inlineSize: `${percent}%` }} />
      </div>
      <span className="progress-text">{text}</span>
    </div>
  );
}

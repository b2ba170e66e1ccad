'use client';

import type { DocumentStatus } from '@lumina/shared';
import { describeProgress, isTerminal, overallProgress, statusWord } from '../../lib/ingestion';
import { useIngestionStore } from '../../store/ingestion.store';
import { ProgressBar } from '../ui/progress-bar';

export interface DocumentStatusCellProps {
  id: string;
  title: string;
  status: DocumentStatus;
  error: string | null;
}

/** The status of one document: a live progress bar while it is ingested, the reason if it failed. */
export function DocumentStatusCell({ id, title, status, error }: DocumentStatusCellProps) {
  const tracked = useIngestionStore((state) => state.documents[id]);
  const current = tracked ?? { status, done: 0, total: 0, error };
  const failed = current.status === 'failed';
  return (
    <div className="document-status" data-status={current.status}>
      {isTerminal(current.status) ? (
        <span className="status-chip" data-status={current.status}>
          {statusWord(current.status)}
        </span>
      ) : (
        <ProgressBar
          value={overallProgress(current)}
          label={`Ingestion of ${title}`}
          text={describeProgress(current)}
        />
      )}
      {failed ? (
        <p className="status-reason">{current.error ?? error ?? 'The server did not say why.'}</p>
      ) : null}
    </div>
  );
}

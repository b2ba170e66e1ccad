'use client';

import type { Page } from '@lumina/shared';
import './ui.css';

export interface PaginationProps {
  /** What is paged, for the screen reader label: "Documents pages". */
  label: string;
  /** The page on screen; nothing is drawn before the first page arrives or when the list is empty. */
  data: Pick<Page<unknown>, 'page' | 'totalPages' | 'total'> | null;
  disabled?: boolean;
  onPage: (page: number) => void;
}

/** Previous / "Page 2 of 5 · 93 in all" / Next. */
export function Pagination({ label, data, disabled, onPage }: PaginationProps) {
  if (!data || data.total <= 0) return null;
  const { page, total } = data;
  const last = Math.max(1, data.totalPages);
  return (
    <nav className="pagination" aria-label={`${label} pages`}>
      <button
        type="button"
        className="button button-secondary button-small"
        onClick={() => onPage(page - 1)}
        disabled={disabled || page <= 1}
      >
        Previous
      </button>
      <span className="pagination-status" aria-live="polite">
        Page {Math.min(page, last)} of {last} · {total} in all
      </span>
      <button
        type="button"
        className="button button-secondary button-small"
        onClick={() => onPage(page + 1)}
        disabled={disabled || page >= last}
      >
        Next
      </button>
    </nav>
  );
}

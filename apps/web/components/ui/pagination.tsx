'use client';

export interface PaginationProps {
  /** What is paged, for the screen reader label: "Documents pages". */
  label: string;
  page: number;
  totalPages: number;
  total: number;
  disabled?: boolean;
  onPage: (page: number) => void;
}

/** Previous / "Page 2 of 5 · 93 in all" / Next. */
export function Pagination({ label, page, totalPages, total, disabled, onPage }: PaginationProps) {
  const last = Math.max(1, totalPages);
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

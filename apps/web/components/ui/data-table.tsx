import type { ReactNode } from 'react';

export interface DataTableProps {
  /** The table's accessible name, e.g. "Documents". */
  label: string;
  /** A newer page is loading while this one stays on screen. */
  busy: boolean;
  /** The header cells (`<th scope="col">`). */
  head: ReactNode;
  /** The body rows. */
  children: ReactNode;
}

/** A list as a table that scrolls sideways on narrow screens. */
export function DataTable({ label, busy, head, children }: DataTableProps) {
  return (
    <div className="table-wrap">
      <table className="data-table" aria-label={label} aria-busy={busy}>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

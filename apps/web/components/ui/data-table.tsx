'use client';

import { useLayoutEffect, useRef, type ReactNode } from 'react';

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

/**
 * A list as a table that scrolls sideways on narrow screens; on a phone each row becomes a card whose
 * cells are labelled with their column's header (copied into `data-label` for the stylesheet).
 */
export function DataTable({ label, busy, head, children }: DataTableProps) {
  const table = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => {
    const element = table.current;
    const header = element?.tHead?.rows[0];
    if (!element || !header) return;
    const names = [...header.cells].map((cell) => cell.textContent?.trim() ?? '');
    for (const body of element.tBodies) {
      for (const row of body.rows) {
        [...row.cells].forEach((cell, index) => {
          const name = names[index];
          if (cell.colSpan > 1 || cell.classList.contains('actions') || !name) return;
          if (cell.getAttribute('data-label') !== name) cell.setAttribute('data-label', name);
        });
      }
    }
  });
  return (
    <div className="table-wrap">
      <table ref={table} className="data-table" aria-label={label} aria-busy={busy}>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

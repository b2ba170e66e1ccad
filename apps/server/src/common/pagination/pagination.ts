import type { Page } from '@lumina/shared';

export { MAX_PAGE } from '@lumina/shared';

export const MAX_PAGE_LIMIT = 100;
export const DEFAULT_PAGE_LIMIT = 20;

export interface PageWindow {
  page: number;
  limit: number;
  offset: number;
}

/** The page and (capped) limit asked for, and the row offset they start at. */
export function pageWindow(query: { page?: number; limit?: number }): PageWindow {
  const page = query.page ?? 1;
  const limit = Math.min(query.limit ?? DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT);
  return { page, limit, offset: (page - 1) * limit };
}

/** The shape of every list answer; a page beyond the end is empty, with the true total. */
export function pageOf<T>(items: T[], total: number, window: PageWindow): Page<T> {
  return {
    items,
    page: window.page,
    limit: window.limit,
    total,
    totalPages: Math.ceil(total / window.limit),
  };
}

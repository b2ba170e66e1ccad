import { trimChars } from '../text/trim-chars';

/**
 * URL-safe slug: lowercase, every run of characters other than letters, marks and digits becomes a single '-',
 * no leading or trailing '-'.
 */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-');
  return trimChars(slug, '-');
}

/** Slug used when a heading path has no letters or digits at all. */
export const FALLBACK_ANCHOR = 'section';

/**
 * Returns a function that hands out anchors for heading paths in document order: the slug of the whole path
 * (`['Runbooks', 'Database']` → `runbooks-database`), suffixed with -2, -3 ... when already handed out.
 * An empty path has no anchor (null).
 */
export function createAnchorAllocator(): (headingPath: readonly string[]) => string | null {
  const used = new Set<string>();
  return (headingPath) => {
    if (headingPath.length === 0) return null;
    const base = slugify(headingPath.join(' ')) || FALLBACK_ANCHOR;
    let anchor = base;
    for (let suffix = 2; used.has(anchor); suffix++) anchor = `${base}-${suffix}`;
    used.add(anchor);
    return anchor;
  };
}

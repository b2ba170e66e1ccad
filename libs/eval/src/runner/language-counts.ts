/**
 * The documents of an index by language, largest first, each with its share: `en 3,629 (99.9%), fr 3
 * (0.1%)`. A corpus that is nearly all one language shows it at a glance; "none" when no document has one.
 */
export function formatLanguageCounts(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts).filter(([, count]) => count > 0);
  const total = entries.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return 'none';
  return entries
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(
      ([language, count]) =>
        `${language} ${count.toLocaleString('en-US')} (${((100 * count) / total).toFixed(1)}%)`,
    )
    .join(', ');
}

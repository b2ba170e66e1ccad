/**
 * A list's page and filters kept in the address bar, so a reload, a shared link or the back button
 * shows the same page: `?page=3&scope=false`. Values equal to their default are left out.
 */

/** A page number from the address bar: a positive whole number, otherwise 1. */
export function pageFromParam(value: string | null | undefined): number {
  if (!value || !/^\d{1,7}$/.test(value)) return 1;
  const page = Number(value);
  return page >= 1 ? page : 1;
}

/**
 * The query string (`?a=1`, or '' when empty) after applying `changes` to `current`: a value that is
 * empty or equal to its default removes the parameter; parameters not named are kept as they are.
 */
export function nextSearch(
  current: string,
  changes: Record<string, string | number | undefined>,
  defaults: Record<string, string> = {},
): string {
  const params = new URLSearchParams(current.startsWith('?') ? current.slice(1) : current);
  for (const [name, raw] of Object.entries(changes)) {
    const value = raw === undefined ? '' : String(raw);
    if (value === '' || value === (defaults[name] ?? '')) params.delete(name);
    else params.set(name, value);
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

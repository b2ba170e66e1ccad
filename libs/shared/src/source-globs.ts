/**
 * Glob patterns over `/`-separated relative paths, as a source's include and exclude lists use them:
 * `**` any number of directories (`docs/**` matches everything under docs, `**\/x.md` x.md at any
 * depth), `*` any characters but `/`, `?` one character but `/`, `{a,b}` either alternative. Every
 * other character stands for itself. A pattern matches the whole path.
 */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*') {
      if (pattern[i + 1] === '*') {
        const atStart = i === 0 || pattern[i - 1] === '/';
        const atEnd = i + 2 === pattern.length || pattern[i + 2] === '/';
        if (atStart && atEnd) {
          if (i + 2 === pattern.length) {
            source += '.*';
          } else {
            source += '(?:[^/]*/)*';
            i++; // the slash after ** belongs to the group
          }
          i++;
          continue;
        }
        i++;
        source += '[^/]*';
        continue;
      }
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '{') {
      braces++;
      source += '(?:';
    } else if (char === '}' && braces > 0) {
      braces--;
      source += ')';
    } else if (char === ',' && braces > 0) {
      source += '|';
    } else {
      source += char.replace(/[.+^$()|[\]\\{}]/g, '\\$&');
    }
  }
  if (braces > 0) throw new Error(`the glob "${pattern}" has an unclosed {`);
  return new RegExp(`^${source}$`);
}

/** Which relative paths a source takes: included (all when no include list) and not excluded. */
export class PathFilter {
  private readonly include: RegExp[] | null;
  private readonly exclude: RegExp[];

  constructor(include: readonly string[] | undefined, exclude: readonly string[] | undefined) {
    this.include = include && include.length > 0 ? include.map(globToRegExp) : null;
    this.exclude = (exclude ?? []).map(globToRegExp);
  }

  accepts(path: string): boolean {
    if (this.include && !this.include.some((re) => re.test(path))) return false;
    return !this.exclude.some((re) => re.test(path));
  }
}

/** The first pattern that is not a valid glob, with why; null when all are. */
export function invalidGlob(patterns: readonly string[]): string | null {
  for (const pattern of patterns) {
    try {
      globToRegExp(pattern);
    } catch (error) {
      return (error as Error).message;
    }
  }
  return null;
}

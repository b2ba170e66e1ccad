import { globToRegExp, invalidGlob, PathFilter } from './source-globs';

describe('globToRegExp', () => {
  const matches = (pattern: string, path: string) => globToRegExp(pattern).test(path);

  it('lets ** stand for any number of directories, * and ? stay within one', () => {
    expect(matches('docs/**/*.md', 'docs/a.md')).toBe(true);
    expect(matches('docs/**/*.md', 'docs/x/y/a.md')).toBe(true);
    expect(matches('docs/**/*.md', 'other/a.md')).toBe(false);
    expect(matches('docs/**', 'docs/x/y/a.png')).toBe(true);
    expect(matches('**/README.md', 'README.md')).toBe(true);
    expect(matches('**/README.md', 'a/b/README.md')).toBe(true);
    expect(matches('*.md', 'a/b.md')).toBe(false);
    expect(matches('*.md', 'b.md')).toBe(true);
    expect(matches('page?.html', 'page1.html')).toBe(true);
    expect(matches('page?.html', 'page/.html')).toBe(false);
  });

  it('reads {a,b} as alternatives and every other character literally', () => {
    expect(matches('**/*.{md,txt}', 'x/notes.txt')).toBe(true);
    expect(matches('**/*.{md,txt}', 'x/notes.html')).toBe(false);
    expect(matches('a+b(1).md', 'a+b(1).md')).toBe(true);
    expect(matches('a.md', 'aXmd')).toBe(false);
  });

  it('names an unclosed brace', () => {
    expect(invalidGlob(['docs/**', '*.{md'])).toBe('the glob "*.{md" has an unclosed {');
    expect(invalidGlob(['docs/**'])).toBeNull();
  });
});

describe('PathFilter', () => {
  it('takes what is included and not excluded; no include list takes everything', () => {
    const filter = new PathFilter(['docs/**/*.md'], ['**/drafts/**']);
    expect(filter.accepts('docs/guide/setup.md')).toBe(true);
    expect(filter.accepts('docs/drafts/next.md')).toBe(false);
    expect(filter.accepts('src/index.md')).toBe(false);
    const all = new PathFilter(undefined, ['*.tmp']);
    expect(all.accepts('a/b/c.md')).toBe(true);
    expect(all.accepts('c.tmp')).toBe(false);
  });
});

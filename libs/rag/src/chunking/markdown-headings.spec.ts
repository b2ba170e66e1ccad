import {
  MAX_HEADING_SOURCE_CHARS,
  cleanHeadingText,
  cleanHeadingTitle,
  parseMarkdownHeadings,
} from './markdown-headings';

function outline(source: string): [number, string][] {
  return parseMarkdownHeadings(source).map((heading) => [heading.level, heading.title]);
}

describe('parseMarkdownHeadings', () => {
  it('finds ATX headings of every level with their line spans', () => {
    const source = '# One\ntext\n###### Six\n   ## Indented two\n';
    expect(parseMarkdownHeadings(source)).toEqual([
      { level: 1, title: 'One', start: 0, end: 6 },
      { level: 6, title: 'Six', start: 11, end: 22 },
      { level: 2, title: 'Indented two', start: 22, end: 41 },
    ]);
  });

  it('requires a space after the hashes and at most three spaces of indentation', () => {
    expect(outline('#hashtag\n####### seven\n    # code\n#\n## ')).toEqual([
      [1, ''],
      [2, ''],
    ]);
  });

  it('removes the optional closing sequence', () => {
    expect(outline('## Title ##\n# Title #####   \n# C# language\n# #\n')).toEqual([
      [2, 'Title'],
      [1, 'Title'],
      [1, 'C# language'],
      [1, ''],
    ]);
  });

  it('ignores headings inside fenced code blocks', () => {
    const source = [
      '# Real',
      '```bash',
      '# comment, not a heading',
      '```',
      '~~~',
      '## also code',
      '```',
      '## still code: a ``` line does not close a ~~~ fence',
      '~~~',
      '````',
      '```',
      '# inside a four-backtick fence',
      '````',
      '## Real again',
    ].join('\n');
    expect(outline(source)).toEqual([
      [1, 'Real'],
      [2, 'Real again'],
    ]);
  });

  it('treats an unclosed fence as running to the end of the document', () => {
    expect(outline('# A\n```\n# not a heading\n')).toEqual([[1, 'A']]);
  });

  it('finds setext headings including multi-line titles', () => {
    const source = 'Main Title\n==========\n\nIntro.\n\nSub\ntitle\n---\nBody.\n';
    const headings = parseMarkdownHeadings(source);
    expect(headings).toEqual([
      { level: 1, title: 'Main Title', start: 0, end: 22 },
      { level: 2, title: 'Sub title', start: 31, end: 45 },
    ]);
    expect(source.slice(headings[1].start, headings[1].end)).toBe('Sub\ntitle\n---\n');
  });

  it('does not mistake thematic breaks, list items or block quotes for setext headings', () => {
    expect(outline('Para.\n\n---\n\nText\n\n***\n- item\n---\n> quote\n---\n    code\n---\n')).toEqual([]);
    expect(outline('Para\n- item\n---\n')).toEqual([]);
  });

  it('handles CRLF line endings', () => {
    const source = '# One\r\nText\r\n\r\nTwo\r\n---\r\n';
    expect(parseMarkdownHeadings(source)).toEqual([
      { level: 1, title: 'One', start: 0, end: 7 },
      { level: 2, title: 'Two', start: 15, end: 25 },
    ]);
  });
});

describe('parseMarkdownHeadings on hostile input (each used to take seconds: quadratic backtracking)', () => {
  const quickly = <T>(run: () => T): T => {
    const started = performance.now();
    const result = run();
    expect(performance.now() - started).toBeLessThan(1000);
    return result;
  };

  it('reads "# a" + 200,000 spaces + "b" as one heading, at once', () => {
    const headings = quickly(() => parseMarkdownHeadings(`# a${' '.repeat(200_000)}b\ntext\n`));
    expect(headings).toHaveLength(1);
    expect(headings[0].level).toBe(1);
    // The title is read from its first MAX_HEADING_SOURCE_CHARS characters: here, "a" and blanks.
    expect(headings[0].title).toBe('a');
    expect(parseMarkdownHeadings(`# a${' '.repeat(500)}b`)[0].title).toBe('a b');
  });

  it('strips closing hashes after a long run of blanks, and keeps a long title without them', () => {
    expect(quickly(() => outline(`## Title${' \t'.repeat(100_000)}###   \n`))).toEqual([[2, 'Title']]);
    const [[, title]] = quickly(() => outline(`# ${'x '.repeat(100_000)}#y\n`));
    expect(title.length).toBeLessThanOrEqual(MAX_HEADING_SOURCE_CHARS);
    expect(title.startsWith('x x x')).toBe(true);
  });

  it('opens a fence whose info string holds a line separator, without a quadratic retry', () => {
    expect(quickly(() => outline(`${'`'.repeat(100_000)}\u2028\n# inside\n`))).toEqual([]);
  });

  it('bounds the inline Markdown work of a huge heading or setext paragraph', () => {
    expect(quickly(() => outline(`# ${'*a '.repeat(100_000)}\n`))[0][1].startsWith('*a *a')).toBe(true);
    expect(quickly(() => outline(`${'[['.repeat(100_000)}\n===\n`))[0][0]).toBe(1);
    expect(quickly(() => outline(`${'_a '.repeat(100_000)}\n---\n`))[0][0]).toBe(2);
  });
});

describe('cleanHeadingTitle', () => {
  it('strips emphasis, strikethrough, inline code and links', () => {
    expect(cleanHeadingTitle('**Bold** and *it* and __b__ and _i_ and ***both***')).toBe(
      'Bold and it and b and i and both',
    );
    expect(cleanHeadingTitle('~~old~~ `code` [Link text](https://example.com) ![img](x.png)')).toBe(
      'old code Link text img',
    );
    expect(cleanHeadingTitle('**Nested _emphasis_ here**')).toBe('Nested emphasis here');
  });

  it('keeps underscores inside words, lone asterisks and escaped characters', () => {
    expect(cleanHeadingTitle('Set my_var_name to 2 * 3')).toBe('Set my_var_name to 2 * 3');
    expect(cleanHeadingTitle('\\*not emphasis\\* \\#1')).toBe('*not emphasis* #1');
  });

  it('collapses whitespace', () => {
    expect(cleanHeadingTitle('  a \t  b  ')).toBe('a b');
  });
});

describe('cleanHeadingText', () => {
  it('cleans headings as titles are: badges, images, HTML tags and entities removed', () => {
    // The headings of prom-client's, yaml's and pino-http's READMEs, as written.
    expect(
      outline(
        [
          '# Prometheus client for node.js [![Actions Status](https://github.com/siimon/prom-client/workflows/Node.js%20CI/badge.svg?branch=master)](https://github.com/siimon/prom-client/actions)',
          '# YAML <a href="https://www.npmjs.com/package/yaml"><img align="right" src="https://badge.fury.io/js/yaml.svg" title="npm package" /></a>',
          '# pino-http&nbsp;&nbsp;[![Build Status](https://img.shields.io/github/actions/workflow/status/pinojs/pino-http/ci.yml?branch=master)](https://github.com/pinojs/pino-http/actions)',
          '## Multer [![NPM Version][npm-version-image]][npm-url]',
          'Setext <sup>beta</sup> &amp; more',
          '---',
        ].join('\n'),
      ),
    ).toEqual([
      [1, 'Prometheus client for node.js'],
      [1, 'YAML'],
      [1, 'pino-http'],
      [2, 'Multer'],
      [2, 'Setext beta & more'],
    ]);
    // A heading that is only a logo is its alt text.
    expect(cleanHeadingText('[![ioredis](https://cdn/ioredis.svg)](https://github.com/luin/ioredis)')).toBe(
      'ioredis',
    );
  });

  it('keeps what is not markup: type parameters, code, option dashes', () => {
    expect(cleanHeadingText('impl<T> Vec<T>')).toBe('impl<T> Vec<T>');
    expect(cleanHeadingText('`Map<K, V>` and `<a>` in code')).toBe('Map<K, V> and <a> in code');
    expect(cleanHeadingText('--port')).toBe('--port');
    expect(cleanHeadingText('-h, --help')).toBe('-h, --help');
    expect(cleanHeadingText('pinoHttp([opts], [stream])')).toBe('pinoHttp([opts], [stream])');
    expect(cleanHeadingText('Parse & Stringify')).toBe('Parse & Stringify');
  });
});

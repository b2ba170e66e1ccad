import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  MAX_MARKDOWN_CHARS,
  parseInline,
  parseMarkdown,
  renderMarkdown,
  renderPassage,
  safeHref,
} from './markdown';

/** The answer as HTML, markers shown as <button class="cite" data-start=…>n</button>. */
function html(text: string): string {
  const nodes = renderMarkdown(text, {
    renderMarker: (marker, start, key) =>
      createElement('button', { key, className: 'cite', 'data-start': start }, marker),
  });
  return renderToStaticMarkup(createElement('div', null, ...nodes));
}

describe('markdown answers', () => {
  it('renders lists, fenced and inline code, emphasis and headings as bold lines', () => {
    const answer = [
      '## Connecting',
      'To connect using **Sentinel**, use:',
      '```js',
      'const redis = new Redis({ sentinels: [{ host: "localhost", port: 26379 }] });',
      '```',
      'Options:',
      '- `name`: the *group* name',
      '- `role`: master or slave',
      '',
      '1. first',
      '2. second',
    ].join('\n');
    expect(html(answer)).toBe(
      '<div>' +
        '<p class="md-heading" data-level="2"><strong>Connecting</strong></p>' +
        '<p>To connect using <strong>Sentinel</strong>, use:</p>' +
        '<pre class="md-pre"><code class="language-js">' +
        'const redis = new Redis({ sentinels: [{ host: &quot;localhost&quot;, port: 26379 }] });</code></pre>' +
        '<p>Options:</p>' +
        '<ul><li><code class="md-code">name</code>: the <em>group</em> name</li>' +
        '<li><code class="md-code">role</code>: master or slave</li></ul>' +
        '<ol><li>first</li><li>second</li></ol>' +
        '</div>',
    );
  });

  it('keeps line breaks inside a paragraph and nests lists by indentation', () => {
    expect(html('one\ntwo')).toBe('<div><p>one<br/>two</p></div>');
    expect(html('- a\n  - b\n  - c\n- d')).toBe(
      '<div><ul><li>a<ul><li>b</li><li>c</li></ul></li><li>d</li></ul></div>',
    );
    expect(html('3. three\n4. four')).toBe('<div><ol start="3"><li>three</li><li>four</li></ol></div>');
    expect(html('> quoted *text*')).toBe('<div><blockquote><p>quoted <em>text</em></p></blockquote></div>');
  });

  it('shows HTML in an answer as text, never as markup', () => {
    const out = html(
      '<script>alert(1)</script> and <img src=x onerror=alert(2)>\n```\n<script>x()</script>\n```',
    );
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<img');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(out).toContain('<pre class="md-pre"><code>&lt;script&gt;x()&lt;/script&gt;</code></pre>');
  });

  it('links only http(s) addresses, in a new tab without the opener', () => {
    expect(html('See [the docs](https://example.com/a?b=1) now.')).toBe(
      '<div><p>See <a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer">the docs</a> now.</p></div>',
    );
    for (const hostile of [
      '[click](javascript:alert(1))',
      '[click](JavaScript:alert(1))',
      '[click]( javascript:alert(1))',
      '[click](data:text/html;base64,PHNjcmlwdD4=)',
      '[click](vbscript:msgbox(1))',
      '[click](/relative)',
      '<javascript:alert(1)>',
    ]) {
      const out = html(hostile);
      expect(out).not.toContain('<a');
      expect(out).not.toMatch(/href=/);
    }
    expect(html('[click](javascript:alert(1))')).toBe('<div><p>click</p></div>');
    expect(html('Go to https://example.com/docs.')).toBe(
      '<div><p>Go to <a href="https://example.com/docs" target="_blank" rel="noopener noreferrer">https://example.com/docs</a>.</p></div>',
    );
    expect(html('![tracking pixel](https://evil.example/p.png)')).toBe('<div><p>tracking pixel</p></div>');
    expect(safeHref('https://example.com')).toBe('https://example.com/');
    expect(safeHref('java\nscript:alert(1)')).toBeNull();
    expect(safeHref('http://')).toBeNull();
  });

  it('reads nested emphasis, and leaves unmatched or hostile delimiters as text', () => {
    expect(html('**bold *and em* bold**')).toBe(
      '<div><p><strong>bold <em>and em</em> bold</strong></p></div>',
    );
    expect(html('***both***')).toBe('<div><p><strong><em>both</em></strong></p></div>');
    expect(html('**bold *em***')).toBe('<div><p><strong>bold <em>em</em></strong></p></div>');
    expect(html('*a **b** c*')).toBe('<div><p><em>a <strong>b</strong> c</em></p></div>');
    expect(html('~~gone~~ and snake_case_name and 2 * 3 * 4')).toBe(
      '<div><p><del>gone</del> and snake_case_name and 2 * 3 * 4</p></div>',
    );
    expect(html('**never closed and *also')).toBe('<div><p>**never closed and *also</p></div>');
    expect(html('\\*literal\\*')).toBe('<div><p>*literal*</p></div>');
    const deep = `${'*'.repeat(40)}x${'*'.repeat(40)}`;
    expect(html(deep)).toContain('x');
    const started = Date.now();
    const hostile = '*_'.repeat(5_000) + '[('.repeat(2_000) + '`'.repeat(5_000);
    expect(html(hostile).length).toBeGreaterThan(hostile.length / 2);
    expect(html('> '.repeat(500) + 'deep')).toContain('deep');
    expect(html('- '.repeat(500) + 'deep')).toContain('deep');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('turns citation markers into marker nodes with their offset in the answer, but not inside code', () => {
    const answer = 'Leave is **16 weeks** [1].\n- Also [2, 3]\n`[4]` stays code';
    const markers = [...html(answer).matchAll(/data-start="(\d+)">(\d+)</g)].map((m) => [
      Number(m[2]),
      Number(m[1]),
    ]);
    expect(markers).toEqual([
      [1, answer.indexOf('[1]')],
      [2, answer.indexOf('[2, 3]')],
      [3, answer.indexOf('[2, 3]')],
    ]);
    expect(html(answer)).toContain('<code class="md-code">[4]</code>');
    expect(parseInline('see [2024] and [1](https://x.example)')).toEqual([
      { type: 'text', text: 'see [2024] and ' },
      { type: 'link', href: 'https://x.example/', children: [{ type: 'text', text: '1' }] },
    ]);
  });

  it('renders a quoted table row under its header, the marker in its cell at its offset', () => {
    const answer = 'Options:\n\n| Key | Default |\n| --- | :---: |\n| `timeout` | 30 s [2] |\n\nAfter. [1]';
    expect(html(answer)).toBe(
      '<div><p>Options:</p>' +
        '<div class="md-table-wrap"><table class="md-table"><thead><tr><th scope="col">Key</th>' +
        '<th scope="col">Default</th></tr></thead><tbody><tr><td><code class="md-code">timeout</code></td>' +
        `<td>30 s <button class="cite" data-start="${answer.indexOf('[2]')}">2</button></td></tr></tbody></table></div>` +
        `<p>After. <button class="cite" data-start="${answer.indexOf('[1]')}">1</button></p></div>`,
    );
    // Without the delimiter row it is a paragraph; a row with extra cells keeps the header's width.
    expect(parseMarkdown('| a | b |\n| c | d |')[0].type).toBe('paragraph');
    const table = parseMarkdown('| a | b |\n|---|---|\n| 1 | 2 | 3 |\n| x |')[0];
    expect(table.type === 'table' ? table.rows.map((row) => row.length) : []).toEqual([2, 2]);
  });

  it('renders a cited passage with code as code and only the quoted span marked', () => {
    const passage =
      'Intro here. Connect with the **sentinels** option:\n\n```js\nnew Redis({ sentinels });\n```\n\nSee [1].';
    const start = passage.indexOf('Connect');
    const end = passage.indexOf('```\n\nSee') + 3;
    const out = renderToStaticMarkup(createElement('div', null, ...renderPassage(passage, [{ start, end }])));
    expect(out).toBe(
      '<div><p>Intro here. <mark class="cited-span">Connect with the </mark><strong>' +
        '<mark class="cited-span">sentinels</mark></strong><mark class="cited-span"> option:</mark></p>' +
        '<pre class="md-pre"><code class="language-js"><mark class="cited-span">new Redis({ sentinels });</mark>' +
        '</code></pre><p>See [1].</p></div>',
    );
    expect(renderToStaticMarkup(createElement('div', null, ...renderPassage('a\uE000b', [])))).toBe(
      '<div><p>a\uFFFDb</p></div>',
    );
  });

  it('marks a whole table row (from its first pipe) inside its cells, keeping the table', () => {
    const passage = '- intro item\n\n| Key | Default |\n| --- | --- |\n| timeout | 30 s |';
    const row = passage.indexOf('| timeout');
    const item = passage.indexOf('- intro');
    const out = renderToStaticMarkup(
      createElement(
        'div',
        null,
        ...renderPassage(passage, [
          { start: item, end: item + '- intro item'.length },
          { start: row, end: passage.length },
        ]),
      ),
    );
    expect(out).toContain('<ul><li><mark class="cited-span">intro item</mark></li></ul>');
    expect(out).toContain(
      '<tbody><tr><td><mark class="cited-span">timeout</mark></td><td><mark class="cited-span">30 s</mark></td></tr>',
    );
    expect(out).toContain('<th scope="col">Key</th>');
  });

  it('renders a streaming answer as far as it goes: an unclosed fence is code so far', () => {
    expect(parseMarkdown('Run:\n```sh\nnpm inst')).toEqual([
      { type: 'paragraph', lines: [[{ type: 'text', text: 'Run:' }]] },
      { type: 'code', language: 'sh', text: 'npm inst' },
    ]);
    expect(html('')).toBe('<div></div>');
  });

  it('shows a very long answer as plain text with its markers', () => {
    const long = `${'a'.repeat(MAX_MARKDOWN_CHARS)} **not bold** [1]`;
    const out = html(long);
    expect(out).toContain('**not bold**');
    expect(out).toContain('<button class="cite"');
  });
});

import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MAX_MARKDOWN_CHARS, Markdown, renderPassage, safeHref } from './markdown';

/** Static HTML without the line ends between block tags. */
function markup(node: ReactNode): string {
  return renderToStaticMarkup(<div>{node}</div>).replace(/>\n</g, '><');
}

/** The answer as HTML, markers shown as <button class="cite" data-start=…>n</button>. */
function html(text: string): string {
  return markup(
    <Markdown
      text={text}
      renderMarker={(marker, offset) => (
        <button className="cite" data-start={offset}>
          {marker}
        </button>
      )}
    />,
  );
}

/** Each marker of the answer with its offset. */
function markers(text: string): [number, number][] {
  return [...html(text).matchAll(/data-start="(\d+)">(\d+)</g)].map((m) => [Number(m[2]), Number(m[1])]);
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
    expect(html('one\ntwo')).toBe('<div><p>one<br/>\ntwo</p></div>');
    expect(html('- a\n  - b\n  - c\n- d')).toBe(
      '<div><ul><li>a\n<ul><li>b</li><li>c</li></ul></li><li>d</li></ul></div>',
    );
    expect(html('3. three\n4. four')).toBe('<div><ol start="3"><li>three</li><li>four</li></ol></div>');
    expect(html('> quoted *text*')).toBe('<div><blockquote><p>quoted <em>text</em></p></blockquote></div>');
  });

  it('shows HTML in an answer as text, never as markup', () => {
    const out = html(
      'Note: <script>alert(1)</script> and <img src=x onerror=alert(2)>\n\n<div onclick="x()">block</div>\n\n```\n<script>x()</script>\n```',
    );
    expect(out).not.toMatch(/<(script|img|div onclick)/);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt; and &lt;img src=x onerror=alert(2)&gt;');
    expect(out).toContain('&lt;div onclick=&quot;x()&quot;&gt;block&lt;/div&gt;');
    expect(out).toContain('<pre class="md-pre"><code>&lt;script&gt;x()&lt;/script&gt;</code></pre>');
  });

  it('links only http(s) addresses, in a new tab without the opener', () => {
    expect(html('See [the docs](https://example.com/a?b=1) now.')).toBe(
      '<div><p>See <a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer">the docs</a> now.</p></div>',
    );
    for (const hostile of [
      '[click](javascript:alert(1))',
      '[click](JavaScript:alert(1))',
      '[click](<javascript:alert(1)>)',
      '[click](data:text/html;base64,PHNjcmlwdD4=)',
      '[click](vbscript:msgbox(1))',
      '[click](/relative)',
      '[click][ref]\n\n[ref]: javascript:alert(1)',
      '<javascript:alert(1)>',
      'mail <someone@example.com>',
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
    expect(html('***both***')).toBe('<div><p><em><strong>both</strong></em></p></div>');
    expect(html('~~gone~~ and snake_case_name and 2 * 3 * 4')).toBe(
      '<div><p><del>gone</del> and snake_case_name and 2 * 3 * 4</p></div>',
    );
    expect(html('**never closed and *also')).toBe('<div><p>**never closed and *also</p></div>');
    expect(html('\\*literal\\*')).toBe('<div><p>*literal*</p></div>');
    const started = Date.now();
    // Delimiters past the parser's comfort are shown as text, not resolved.
    const hostile = '*_'.repeat(5_000) + '[('.repeat(2_000) + '`'.repeat(5_000);
    expect(html(hostile)).toBe(`<div><p>${hostile}</p></div>`);
    expect(html('[('.repeat(2_000) + '`'.repeat(5_000))).toContain('[(');
    expect(html('> '.repeat(500) + 'deep')).toContain('deep');
    expect(html('- '.repeat(500) + 'deep')).toContain('deep');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('turns citation markers into markers with their offset in the answer, but not inside code or links', () => {
    const answer =
      'Leave is **16 weeks** [1].\n- Also [2, 3]\n\n`[4]` stays code, [see [5]](https://x.example) a link';
    expect(markers(answer)).toEqual([
      [1, answer.indexOf('[1]')],
      [2, answer.indexOf('[2, 3]')],
      [3, answer.indexOf('[2, 3]')],
    ]);
    expect(html(answer)).toContain('<code class="md-code">[4]</code>');
    expect(html(answer)).toContain('>see [5]</a>');
    // Years, escaped brackets and link labels are not markers.
    expect(html('see [2024], \\[1\\] and [1](https://x.example)')).toBe(
      '<div><p>see [2024], [1] and <a href="https://x.example/" target="_blank" rel="noopener noreferrer">1</a></p></div>',
    );
    // An entity before a marker shifts the value but not the offset.
    const shifted = 'A &amp; B &copy; [2]';
    expect(markers(shifted)).toEqual([[2, shifted.indexOf('[2]')]]);
  });

  it('renders a table under its header, the marker in its cell at its offset', () => {
    const answer = 'Options:\n\n| Key | Default |\n| --- | --- |\n| `timeout` | 30 s [2] |\n\nAfter. [1]';
    expect(html(answer)).toBe(
      '<div><p>Options:</p>' +
        '<div class="md-table-wrap"><table class="md-table"><thead><tr><th scope="col">Key</th>' +
        '<th scope="col">Default</th></tr></thead><tbody><tr><td><code class="md-code">timeout</code></td>' +
        `<td>30 s <button class="cite" data-start="${answer.indexOf('[2]')}">2</button></td></tr></tbody></table></div>` +
        `<p>After. <button class="cite" data-start="${answer.indexOf('[1]')}">1</button></p></div>`,
    );
    // Without the delimiter row it is a paragraph.
    expect(html('| a | b |\n| c | d |')).toBe('<div><p>| a | b |<br/>\n| c | d |</p></div>');
  });

  it('renders a cited passage with code as code and only the quoted span marked', () => {
    const passage =
      'Intro here. Connect with the **sentinels** option:\n\n```js\nnew Redis({ sentinels });\n```\n\nSee [1].';
    const start = passage.indexOf('Connect');
    const end = passage.indexOf('```\n\nSee') + 3;
    expect(markup(renderPassage(passage, [{ start, end }]))).toBe(
      '<div><p>Intro here. <mark class="cited-span">Connect with the </mark><strong>' +
        '<mark class="cited-span">sentinels</mark></strong><mark class="cited-span"> option:</mark></p>' +
        '<pre class="md-pre"><code class="language-js"><mark class="cited-span">new Redis({ sentinels });</mark>' +
        '</code></pre><p>See [1].</p></div>',
    );
    expect(markup(renderPassage('a\uE000b', []))).toBe('<div><p>a\uFFFDb</p></div>');
  });

  it('marks a whole table row (from its first pipe) inside its cells, keeping the table', () => {
    const passage = '- intro item\n\n| Key | Default |\n| --- | --- |\n| timeout | 30 s |';
    const row = passage.indexOf('| timeout');
    const item = passage.indexOf('- intro');
    const out = markup(
      renderPassage(passage, [
        { start: item, end: item + '- intro item'.length },
        { start: row, end: passage.length },
      ]),
    );
    expect(out).toContain('<ul><li><mark class="cited-span">intro item</mark></li></ul>');
    expect(out).toContain(
      '<tbody><tr><td><mark class="cited-span">timeout</mark></td><td><mark class="cited-span">30 s</mark></td></tr>',
    );
    expect(out).toContain('<th scope="col">Key</th>');
  });

  it('renders a streaming answer as far as it goes: an unclosed fence is code so far', () => {
    expect(html('Run:\n```sh\nnpm inst')).toBe(
      '<div><p>Run:</p><pre class="md-pre"><code class="language-sh">npm inst</code></pre></div>',
    );
    expect(html('It is **partly')).toBe('<div><p>It is **partly</p></div>');
    expect(html('')).toBe('<div></div>');
  });

  it('shows a very long answer as plain text with its markers', () => {
    const long = `${'a'.repeat(MAX_MARKDOWN_CHARS)} **not bold** [1]`;
    const out = html(long);
    expect(out).toContain('**not bold**');
    expect(markers(long)).toEqual([[1, long.indexOf('[1]')]]);
  });
});

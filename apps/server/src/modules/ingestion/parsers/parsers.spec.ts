import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnreadableDocumentError } from '../errors/unreadable-document.error';
import { CorpusFormatError, readCorpusUpload } from './beir-corpus.reader';
import { HtmlParser } from './html.parser';
import { MarkdownParser } from './markdown.parser';
import { TextParser } from './text.parser';

describe('text parsers', () => {
  it('decodes UTF-8, drops the byte-order mark and normalises line ends', async () => {
    const parsed = await new TextParser().parse(
      Buffer.from('\uFEFFLine one.\r\nLine two.\rLine three.'),
      'a.txt',
    );
    expect(parsed).toEqual({ text: 'Line one.\nLine two.\nLine three.', format: 'plain' });
    expect(
      await new MarkdownParser().parse(Buffer.from('# Guide [![CI][ci-badge]][ci]\n\n## Sub\n\nx'), 'a.md'),
    ).toEqual({
      text: '# Guide [![CI][ci-badge]][ci]\n\n## Sub\n\nx',
      format: 'markdown',
      title: 'Guide',
    });
    // A level-1 heading after a section names a section, not the document.
    expect(
      (await new MarkdownParser().parse(Buffer.from('Intro\n\n## Sub\n\n# Guide\n\nx'), 'a.md')).title,
    ).toBeUndefined();
    expect((await new MarkdownParser().parse(Buffer.from('## Only a sub'), 'b.md')).title).toBeUndefined();
  });

  it('refuses bytes that are not UTF-8 text with a sentence', async () => {
    await expect(new TextParser().parse(Buffer.from([0x61, 0xff]), 'bad.txt')).rejects.toThrow(
      new UnreadableDocumentError(
        '"bad.txt" is not valid UTF-8 text. Save it with the UTF-8 encoding and upload it again.',
      ),
    );
    await expect(new TextParser().parse(Buffer.from('a\u0000b'), 'bin.txt')).rejects.toBeInstanceOf(
      UnreadableDocumentError,
    );
  });
});

describe('HtmlParser', () => {
  it('turns headings into Markdown headings, drops scripts and styles, and reads the title', async () => {
    const html =
      '<html><head><title>Caf&eacute; &amp; Tea</title><style>h1{}</style></head><body>' +
      '<h1>Brewing</h1><p>Use water at <em>80 °C</em>.</p><script>track()</script>' +
      '<h2>Green tea</h2><p>Steep for 2_3 minutes * not more.</p></body></html>';
    const parsed = await new HtmlParser().parse(Buffer.from(html), 'tea.html');
    expect(parsed.format).toBe('markdown');
    expect(parsed.text).toBe(
      '# Brewing\n\nUse water at _80 °C_.\n\n## Green tea\n\nSteep for 2_3 minutes * not more.',
    );
    expect(parsed.title).toBe('Café & Tea');
  });
});

describe('HtmlParser on deeply nested pages', () => {
  it('keeps the text of every level of a 200 KB page nested 500 deep', async () => {
    const levels = 500;
    const sentence = (level: number) =>
      `Paragraph ${level} of the nested page says word${level} and keeps going ` +
      'with filler text '.repeat(20);
    let html = '';
    for (let level = 0; level < levels; level += 1) html += `<div><p>${sentence(level)}</p>`;
    html += '</div>'.repeat(levels);
    expect(html.length).toBeGreaterThan(200_000);
    const parsed = await new HtmlParser().parse(
      Buffer.from(`<html><body>${html}</body></html>`),
      'deep.html',
    );
    const kept = Array.from({ length: levels }, (_, level) => level).filter((level) =>
      parsed.text.includes(`word${level} `),
    );
    expect(kept).toHaveLength(levels);
  });
});

describe('HtmlParser headings', () => {
  it('separates a heading word from the code signature after it (the "DecimalDecimal(value)" case)', async () => {
    const html =
      '<h5 id="decimal">\n  Decimal<code class="inset">Decimal(value) <i>&rArr; Decimal</i></code>\n</h5><p>Returns a new Decimal.</p>';
    const parsed = await new HtmlParser().parse(Buffer.from(html), 'api.html');
    expect(parsed.text).toBe('##### Decimal Decimal(value) ⇒ Decimal\n\nReturns a new Decimal.');
    expect(parsed.headingAnchors).toEqual([{ offset: 0, anchor: 'decimal' }]);
  });
});

describe('readCorpusUpload', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lumina-corpus-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it('reads .jsonl lines and .json arrays, with numeric ids and titles standing in for missing text', async () => {
    const jsonl = file(
      'c.jsonl',
      '{"_id":"a","title":"A","text":"alpha"}\n\n{"_id":7,"title":"Seven","text":""}\n',
    );
    expect(await readCorpusUpload(jsonl, 'jsonl', 'c.jsonl')).toEqual([
      { id: 'a', title: 'A', text: 'alpha' },
      { id: '7', title: 'Seven', text: 'Seven' },
    ]);
    const json = file('c.json', '[{"_id":"x","text":"ex"},{"_id":"y","title":null,"text":"why"}]');
    expect(await readCorpusUpload(json, 'json', 'c.json')).toEqual([
      { id: 'x', title: '', text: 'ex' },
      { id: 'y', title: '', text: 'why' },
    ]);
  });

  it('names the file and the line or entry of what is wrong', async () => {
    await expect(
      readCorpusUpload(file('d.jsonl', '{"_id":"a","text":"x"}\n{"_id":"a","text":"y"}'), 'jsonl', 'd.jsonl'),
    ).rejects.toThrow(
      new CorpusFormatError(
        '"d.jsonl" line 2: duplicate _id "a". Each line must be a JSON object {"_id", "title", "text"}.',
      ),
    );
    await expect(readCorpusUpload(file('e.jsonl', 'not json'), 'jsonl', 'e.jsonl')).rejects.toThrow(
      /"e\.jsonl" line 1: malformed JSON/,
    );
    await expect(readCorpusUpload(file('f.json', '[{"_id":"a"}]'), 'json', 'f.json')).rejects.toThrow(
      '"f.json" entry 1: "text" must be a string.',
    );
    await expect(readCorpusUpload(file('g.json', '[]'), 'json', 'g.json')).rejects.toThrow(
      '"g.json" holds no corpus entries.',
    );
    await expect(
      readCorpusUpload(file('h.json', '[{"_id":"a","title":" ","text":" "}]'), 'json', 'h.json'),
    ).rejects.toThrow(/entry "a" has neither a title nor a text/);
  });
});

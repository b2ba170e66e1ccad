import { chunkDocument, pageRange } from './chunk-document';

describe('chunkDocument', () => {
  const markdown = '# Runbooks\n\n## Failover\n\nPromote the replica. Then repoint the writers.';

  it('prefixes the title and heading path to the indexed text, keeping the exact span text', () => {
    const [chunk] = chunkDocument(
      { documentId: 'd1', title: 'Ops handbook', text: markdown, format: 'markdown' },
      { unit: 'chunk', maxChars: 200, overlapChars: 0 },
    );
    expect(chunk.headingPath).toEqual(['Runbooks', 'Failover']);
    expect(chunk.indexText).toBe(
      'Ops handbook › Runbooks › Failover\n\nPromote the replica. Then repoint the writers.',
    );
    expect(markdown.slice(chunk.start, chunk.end)).toBe(chunk.text);
  });

  it('indexes a whole document as one unit when asked', () => {
    const text = 'First sentence here. Second sentence here. Third sentence here.';
    const chunks = chunkDocument(
      { documentId: 'd2', title: 'T', text, format: 'plain' },
      { unit: 'document', maxChars: 20, overlapChars: 0 },
    );
    expect(chunks).toHaveLength(1);
    expect(chunks[0].text).toBe(text);
  });

  it('cuts plain text by sentences under the size limit', () => {
    const text = 'First sentence here. Second sentence here. Third sentence here.';
    const chunks = chunkDocument(
      { documentId: 'd3', title: '', text, format: 'plain' },
      { unit: 'chunk', maxChars: 45, overlapChars: 0 },
    );
    expect(chunks.map((c) => c.text)).toEqual([
      'First sentence here. Second sentence here.',
      'Third sentence here.',
    ]);
    expect(chunks[0].indexText).toBe(chunks[0].text);
  });

  it('puts on each chunk the pages its span runs over, from the page offsets of a paged source', () => {
    const page1 = 'Alpha one. Alpha two. Alpha three.';
    const page2 = 'Beta one. Beta two.';
    const text = `${page1}\n\n${page2}`;
    const chunks = chunkDocument(
      { documentId: 'p', title: 'T', text, format: 'plain', pageStarts: [0, page1.length + 2] },
      { unit: 'chunk', maxChars: 30, overlapChars: 0 },
    );
    expect(chunks.map((chunk) => [chunk.text, chunk.pages])).toEqual([
      ['Alpha one. Alpha two.', { first: 1, last: 1 }],
      ['Alpha three.\n\nBeta one.', { first: 1, last: 2 }],
      ['Beta two.', { first: 2, last: 2 }],
    ]);
    expect(
      chunkDocument({ documentId: 'q', title: 'T', text, format: 'plain' }, DEFAULTS)[0].pages,
    ).toBeUndefined();
  });

  it('maps a span to 1-based pages, a span ending exactly at a page start staying on the page before', () => {
    expect(pageRange([0, 10, 20], 0, 10)).toEqual({ first: 1, last: 1 });
    expect(pageRange([0, 10, 20], 9, 11)).toEqual({ first: 1, last: 2 });
    expect(pageRange([0, 10, 20], 25, 30)).toEqual({ first: 3, last: 3 });
  });

  it('takes the anchor the source gave the enclosing heading, keeping the slug where it gave none', () => {
    const text = '# Guide\n\nIntro text.\n\n## Install\n\nRun the installer.\n\n## Usage\n\nCall the tool.';
    const chunks = chunkDocument(
      {
        documentId: 'h',
        title: 'T',
        text,
        format: 'markdown',
        headingAnchors: [
          { offset: 0, anchor: 'guide' },
          { offset: text.indexOf('## Install'), anchor: 'getting-started' },
          { offset: text.indexOf('## Usage'), anchor: null },
        ],
      },
      DEFAULTS,
    );
    expect(chunks.map((chunk) => [chunk.headingPath, chunk.anchor])).toEqual([
      [['Guide'], 'guide'],
      [['Guide', 'Install'], 'getting-started'],
      [['Guide', 'Usage'], 'guide-usage'],
    ]);
  });
});

const DEFAULTS = { unit: 'chunk' as const, maxChars: 200, overlapChars: 0 };

import { chunkByHeadings } from './heading-chunker';
import type { Chunk } from './chunk';

const roomy = { maxChars: 1000, overlapChars: 0 };

function summary(chunks: Chunk[]): { text: string; headingPath: string[]; anchor: string | null }[] {
  return chunks.map(({ text, headingPath, anchor }) => ({ text, headingPath, anchor }));
}

describe('chunkByHeadings', () => {
  const runbook = [
    'Intro before any heading.',
    '',
    '# Runbooks',
    '',
    'Overview of the runbooks.',
    '',
    '## Database',
    '',
    '### Failover',
    '',
    'Promote the replica.',
    '',
    '## Cache',
    '',
    'Flush it.',
    '',
    '# Runbooks',
    '',
    'Second section with the same title.',
    '',
  ].join('\n');

  it('assigns nested heading paths, popping back to shallower levels', () => {
    expect(summary(chunkByHeadings('rb', runbook, roomy))).toEqual([
      { text: 'Intro before any heading.', headingPath: [], anchor: null },
      { text: 'Overview of the runbooks.', headingPath: ['Runbooks'], anchor: 'runbooks' },
      {
        text: 'Promote the replica.',
        headingPath: ['Runbooks', 'Database', 'Failover'],
        anchor: 'runbooks-database-failover',
      },
      { text: 'Flush it.', headingPath: ['Runbooks', 'Cache'], anchor: 'runbooks-cache' },
      { text: 'Second section with the same title.', headingPath: ['Runbooks'], anchor: 'runbooks-2' },
    ]);
  });

  it('reports spans in the full source, numbers chunks across sections and builds index text', () => {
    const chunks = chunkByHeadings('rb', runbook, roomy);
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual([0, 1, 2, 3, 4]);
    for (const chunk of chunks) {
      expect(chunk.documentId).toBe('rb');
      expect(runbook.slice(chunk.start, chunk.end)).toBe(chunk.text);
    }
    expect(chunks[2].indexText).toBe('Runbooks › Database › Failover\n\nPromote the replica.');
    expect(chunks[0].indexText).toBe('Intro before any heading.');
  });

  it('keeps heading lines out of chunk text', () => {
    const chunks = chunkByHeadings('rb', runbook, roomy);
    expect(chunks.some((chunk) => chunk.text.includes('#'))).toBe(false);
  });

  it('pops a deeper heading when a shallower one follows directly', () => {
    const source = '# A\n### C\nc text.\n## B\nb text.\n#### D\nd text.\n# E\ne text.';
    expect(chunkByHeadings('doc', source, roomy).map((chunk) => chunk.headingPath)).toEqual([
      ['A', 'C'],
      ['A', 'B'],
      ['A', 'B', 'D'],
      ['E'],
    ]);
  });

  it('produces no chunk for sections without body text', () => {
    const chunks = chunkByHeadings('doc', '# Empty\n\n   \n## Also empty\n# Full\nBody.', roomy);
    expect(summary(chunks)).toEqual([{ text: 'Body.', headingPath: ['Full'], anchor: 'full' }]);
  });

  it('returns nothing for a blank document or one with only headings', () => {
    expect(chunkByHeadings('doc', '', roomy)).toEqual([]);
    expect(chunkByHeadings('doc', '# A\n## B\n', roomy)).toEqual([]);
  });

  it('treats a document without headings as a single section with no heading path', () => {
    const chunks = chunkByHeadings('doc', 'Plain text. Nothing else.', roomy);
    expect(summary(chunks)).toEqual([{ text: 'Plain text. Nothing else.', headingPath: [], anchor: null }]);
  });

  it('ignores hash lines inside fenced code blocks', () => {
    const source = [
      '# Deploy',
      '',
      'Run this:',
      '',
      '```bash',
      '# not a heading',
      'make deploy',
      '```',
      '',
      '~~~',
      '## also not a heading',
      '~~~',
      '',
      '## Verify',
      '',
      'Check the logs.',
    ].join('\n');
    const chunks = chunkByHeadings('doc', source, roomy);
    expect(chunks.map((chunk) => chunk.headingPath)).toEqual([['Deploy'], ['Deploy', 'Verify']]);
    expect(chunks[0].text).toContain('# not a heading\nmake deploy');
    expect(chunks[0].text).toContain('## also not a heading');
  });

  it('recognises setext headings', () => {
    const source =
      'Guide\n=====\n\nWelcome.\n\nSetup *Steps*\n-------------\n\nInstall it.\n\nUsage\n=====\nUse it.\n';
    expect(summary(chunkByHeadings('doc', source, roomy))).toEqual([
      { text: 'Welcome.', headingPath: ['Guide'], anchor: 'guide' },
      { text: 'Install it.', headingPath: ['Guide', 'Setup Steps'], anchor: 'guide-setup-steps' },
      { text: 'Use it.', headingPath: ['Usage'], anchor: 'usage' },
    ]);
  });

  it('cleans heading titles', () => {
    const chunks = chunkByHeadings('doc', '## **Bold** `config.yaml` options ##\nBody.', roomy);
    expect(chunks[0].headingPath).toEqual(['Bold config.yaml options']);
    expect(chunks[0].anchor).toBe('bold-config-yaml-options');
  });

  it('gives repeated paths unique anchors, counting sections without body text', () => {
    const source = '# FAQ\n# FAQ\nSecond.\n# FAQ\nThird.\n## Q\nq1.\n# FAQ\n## Q\nq2.';
    expect(chunkByHeadings('doc', source, roomy).map((chunk) => chunk.anchor)).toEqual([
      'faq-2',
      'faq-3',
      'faq-q',
      'faq-q-2',
    ]);
  });

  it('shares the section anchor between the chunks of one section', () => {
    const source = '# Long\nFirst sentence here. Second sentence here. Third sentence here.\n# Next\nEnd.';
    const chunks = chunkByHeadings('doc', source, { maxChars: 25, overlapChars: 0 });
    expect(summary(chunks)).toEqual([
      { text: 'First sentence here.', headingPath: ['Long'], anchor: 'long' },
      { text: 'Second sentence here.', headingPath: ['Long'], anchor: 'long' },
      { text: 'Third sentence here.', headingPath: ['Long'], anchor: 'long' },
      { text: 'End.', headingPath: ['Next'], anchor: 'next' },
    ]);
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual([0, 1, 2, 3]);
  });

  it('overlaps chunks within a section but never across sections', () => {
    const source = '# A\nAa. Bb. Cc.\n# B\nDd. Ee.';
    const chunks = chunkByHeadings('doc', source, { maxChars: 7, overlapChars: 3 });
    expect(summary(chunks)).toEqual([
      { text: 'Aa. Bb.', headingPath: ['A'], anchor: 'a' },
      { text: 'Bb. Cc.', headingPath: ['A'], anchor: 'a' },
      { text: 'Dd. Ee.', headingPath: ['B'], anchor: 'b' },
    ]);
  });

  it('leaves empty headings out of the path but lets them close deeper sections', () => {
    const source = '# Top\n## Inner\ninner text.\n##\nafter empty.';
    expect(summary(chunkByHeadings('doc', source, roomy))).toEqual([
      { text: 'inner text.', headingPath: ['Top', 'Inner'], anchor: 'top-inner' },
      // A new section with the same path as '# Top' (whose own body is empty), hence a new anchor.
      { text: 'after empty.', headingPath: ['Top'], anchor: 'top-2' },
    ]);
  });

  it('validates options even for empty input', () => {
    expect(() => chunkByHeadings('doc', '', { maxChars: 10, overlapChars: 10 })).toThrow(RangeError);
  });
});

import { chunkDocument } from './chunk-document';

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
});

import type { Env } from '../../../config/env.schema';
import { validateEnv } from '../../../config/env.schema';
import { UnreadableDocumentError } from '../errors/unreadable-document.error';
import { DocumentWorkPool } from './document-work-pool';
import type { PrepareRequest } from './prepare-document';

function request(format: PrepareRequest['format'], text: string, name = 'doc'): PrepareRequest {
  return {
    documentId: '00000000-0000-4000-8000-000000000001',
    format,
    bytes: new TextEncoder().encode(text),
    name,
    title: name,
    titleFromFile: true,
    chunking: { unit: 'chunk', maxChars: 400, overlapChars: 50 },
    language: null,
    defaultLanguage: null,
    corpusLanguages: {},
  };
}

describe('DocumentWorkPool (real worker threads)', () => {
  let pool: DocumentWorkPool;
  let env: Env;

  beforeAll(() => {
    env = validateEnv({ INGESTION_PARSE_TIMEOUT_SECONDS: '20', INGESTION_CONCURRENCY: '2' });
    pool = new DocumentWorkPool(env);
  });

  afterAll(async () => {
    await pool.onApplicationShutdown();
  });

  it('parses and chunks on a thread: Markdown headings, the HTML title', async () => {
    const markdown = await pool.prepare(
      request('md', '# Glaciers\n\nIce moves.\n\n## Retreat\n\nThey shrink.\n'),
    );
    expect(markdown.format).toBe('markdown');
    expect(markdown.chunks.map((chunk) => chunk.headingPath)).toEqual([
      ['Glaciers'],
      ['Glaciers', 'Retreat'],
    ]);
    const html = await pool.prepare(request('html', '<title>Volcanoes</title><h1>Lava</h1><p>Hot rock.</p>'));
    expect(html.title).toBe('Volcanoes');
    expect(html.chunks[0].text).toContain('Hot rock.');
  });

  it('refuses a document with no text, with the reason', async () => {
    await expect(pool.prepare(request('txt', '   \n ', 'blank.txt'))).rejects.toThrow(
      new UnreadableDocumentError('"blank.txt" contains no text to index.'),
    );
  });

  it('stops a document past its time budget, and the next one is prepared on a fresh thread', async () => {
    // A budget of 50 ms: with 1 s, a free core chunked the 40 MB below in time once (a CI run where the
    // other test lane had finished), and the document was prepared instead of stopped.
    const strict = new DocumentWorkPool(validateEnv({ INGESTION_PARSE_TIMEOUT_SECONDS: '0.05' }));
    try {
      // 40 MB of text: copying it to the thread and chunking it into 100,000 chunks takes far longer.
      const huge = request('txt', 'word '.repeat(8_000_000), 'huge.txt');
      const started = Date.now();
      await expect(strict.prepare(huge)).rejects.toThrow(/^parsing took longer than 0\.05 s/);
      expect(Date.now() - started).toBeLessThan(15_000);
      const after = await strict.prepare(request('txt', 'Small and quick.'));
      expect(after.chunks).toHaveLength(1);
    } finally {
      await strict.onApplicationShutdown();
    }
  });
});

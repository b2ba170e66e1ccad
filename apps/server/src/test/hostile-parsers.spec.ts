import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnreadableDocumentError } from '../modules/ingestion/errors/unreadable-document.error';
import { DocxParser } from '../modules/ingestion/parsers/docx.parser';
import { unpackZip } from '../modules/ingestion/parsers/docx/zip-container';
import { HtmlParser } from '../modules/ingestion/parsers/html.parser';
import { MAX_HTML_DEPTH } from '../modules/ingestion/parsers/html/html-nesting';
import { PdfParser } from '../modules/ingestion/parsers/pdf.parser';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import {
  makeDeepXmlDocx,
  makeManyEntryDocx,
  makeZipBombDocx,
  nestedDivs,
  writeZip,
} from './fixtures/ingestion/hostile-documents';
import { upload, waitForStatus } from './fixtures/ingestion/ingestion-client';

/**
 * Hostile files against the parsers: each fails with a sentence that names the problem, or parses,
 * within a bounded time on a shared CI core (the unbounded versions took 8 s to minutes, or crashed the
 * stack). Bounds are generous for a busy machine and far below what the old code took.
 */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result?: T; error?: unknown }> {
  const started = performance.now();
  try {
    const result = await work();
    return { ms: performance.now() - started, result };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

/** An ordinary 1 MB page: 40,000 short paragraphs under one heading. */
function flatPage(): string {
  return `<html><head><title>Big</title></head><body><h1>Log</h1>${Array.from(
    { length: 40_000 },
    (_, i) => `<p>Entry ${i} was written.</p>`,
  ).join('')}</body></html>`;
}

/**
 * How slow this machine is right now: converting an ordinary 1 MB page (flatPage) takes about 0.5 s of one
 * idle core. Every time bound below is multiplied by how much longer it takes now, so a loaded machine
 * does not fail a test that only a slow parser should; the old code's 8 s to minutes on an idle machine
 * grows by the same factor.
 */
const ORDINARY_IDLE_MS = 500;
let slowdown = 1;
const bound = (ms: number): number => ms * slowdown;

beforeAll(async () => {
  const html = new HtmlParser();
  await html.parse(Buffer.from('<html><body><p>warm-up</p></body></html>'), 'warm.html');
  const ordinary = await timed(() => html.parse(Buffer.from(flatPage()), 'ordinary.html'));
  slowdown = Math.max(1, ordinary.ms / ORDINARY_IDLE_MS);
});

describe('hostile HTML', () => {
  const html = new HtmlParser();

  it('refuses 550 KB of nested <div>s at once, naming the depth limit', async () => {
    const outcome = await timed(() => html.parse(Buffer.from(nestedDivs(550 * 1024)), 'deep.html'));
    expect(outcome.error).toBeInstanceOf(UnreadableDocumentError);
    expect((outcome.error as Error).message).toBe(
      `"deep.html" nests its HTML elements more than ${MAX_HTML_DEPTH} deep; Lumina reads pages nested at most ${MAX_HTML_DEPTH} deep.`,
    );
    expect(outcome.ms).toBeLessThan(bound(2_000));
  });

  it('refuses depth built from implied end tags (<li><p> that never close) as well', async () => {
    const page = `<html><body>${'<li><p>item '.repeat(60_000)}</body></html>`;
    const outcome = await timed(() => html.parse(Buffer.from(page), 'lists.html'));
    expect((outcome.error as Error).message).toMatch(/nests its HTML elements more than 512 deep/);
    expect(outcome.ms).toBeLessThan(bound(2_000));
  });

  it('reads 300,000 unclosed "<title" openings (the old title pattern was quadratic) in bounded time', async () => {
    const page = `<html><head>${'<title'.repeat(300_000)}</head><body><p>text</p></body></html>`;
    const outcome = await timed(() => html.parse(Buffer.from(page), 'titles.html'));
    expect(outcome.ms).toBeLessThan(bound(5_000));
    // Whatever the tokenizer makes of it, the answer is a result or a readable refusal, never a hang.
    if (outcome.error) expect(outcome.error).toBeInstanceOf(UnreadableDocumentError);
  });

  it('converts a 1 MB flat page of 40,000 paragraphs in bounded time, text intact', async () => {
    const outcome = await timed(() => html.parse(Buffer.from(flatPage()), 'big.html'));
    expect(outcome.error).toBeUndefined();
    expect(outcome.result!.text).toContain('Entry 39999 was written.');
    expect(outcome.ms).toBeLessThan(bound(10_000));
  });

  it('keeps a 1 MB run of spaces inside one heading from slowing the converter', async () => {
    const page = `<html><body><h1>a${' '.repeat(1_000_000)}b</h1><p>text</p></body></html>`;
    const outcome = await timed(() => html.parse(Buffer.from(page), 'spaces.html'));
    expect(outcome.result!.text.startsWith('# a b')).toBe(true);
    expect(outcome.ms).toBeLessThan(bound(3_000));
  });
});

describe('hostile .docx archives', () => {
  const docx = new DocxParser();

  it('refuses a 200 MB zip bomb that declares its size, before inflating a byte of it', async () => {
    const bomb = await makeZipBombDocx(200 * 1024 * 1024, 'truth');
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const outcome = await timed(() => docx.parse(bomb, 'bomb.docx'));
    expect(outcome.error).toBeInstanceOf(UnreadableDocumentError);
    expect((outcome.error as Error).message).toBe(
      '"bomb.docx" could not be read as a Word (.docx) document: its text parts unpack to more than 64 MB (a compressed archive that expands this much is refused).',
    );
    expect(outcome.ms).toBeLessThan(bound(1_000));
  });

  it('stops a 200 MB zip bomb that lies about its size once the real output passes the budget', async () => {
    const bomb = await makeZipBombDocx(200 * 1024 * 1024, 'lie');
    const outcome = await timed(() => docx.parse(bomb, 'liar.docx'));
    expect((outcome.error as Error).message).toMatch(/its text parts unpack to more than 64 MB/);
    expect(outcome.ms).toBeLessThan(bound(5_000));
  });

  it('refuses an archive with more entries than a document has, and XML nested too deep', async () => {
    const many = await timed(() => docx.parse(makeManyEntryDocx(5000), 'many.docx'));
    expect((many.error as Error).message).toBe(
      '"many.docx" could not be read as a Word (.docx) document: the archive holds 5000 entries, more than the 2000 allowed.',
    );
    const deep = await timed(() => docx.parse(makeDeepXmlDocx(100_000), 'deep.docx'));
    expect((deep.error as Error).message).toBe(
      '"deep.docx" could not be read as a Word (.docx) document: its part "word/document.xml" nests elements more than 256 deep.',
    );
    expect(many.ms + deep.ms).toBeLessThan(bound(3_000));
  });

  it('refuses bytes that are no zip, a cut-off archive and an unknown compression method, each with its reason', async () => {
    await expect(docx.parse(Buffer.from('just words, no archive'), 'a.docx')).rejects.toThrow(
      /"a\.docx" could not be read as a Word \(\.docx\) document: it is not a zip archive/,
    );
    const whole = makeDeepXmlDocx(3);
    await expect(docx.parse(whole.subarray(0, whole.length - 30), 'cut.docx')).rejects.toThrow(
      /could not be read as a Word/,
    );
    const odd = writeZip([
      { name: 'word/document.xml', data: Buffer.from('xx'), method: 8, declaredSize: 2 },
    ]);
    odd.writeUInt16LE(12, odd.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 10); // bzip2
    expect(() => unpackZip(odd, 'odd.docx', () => true)).toThrow(/unsupported compression method \(12\)/);
  });
});

describe('hostile PDF', () => {
  it('refuses bytes that only start like a PDF with a sentence', async () => {
    const outcome = await timed(() =>
      new PdfParser().parse(Buffer.from('%PDF-1.7\n' + 'x'.repeat(100_000)), 'fake.pdf'),
    );
    expect(outcome.error).toBeInstanceOf(UnreadableDocumentError);
    expect((outcome.error as Error).message).toMatch(/^"fake\.pdf" could not be read as a PDF/);
    expect(outcome.ms).toBeLessThan(bound(3_000));
  });
});

describe('hostile files through ingestion (embedded PGlite, real Redis)', () => {
  const uploadDir = mkdtempSync(join(tmpdir(), 'lumina-hostile-'));
  let server: TestApp;

  beforeAll(async () => {
    server = await startTestApp(testEnv({ UPLOAD_DIR: uploadDir }));
  });

  afterAll(async () => {
    await server.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('fails a zip bomb and 550 KB of nested divs on the first attempt, with the reason, not after retries', async () => {
    const { status, body } = await upload(server.baseUrl, [
      { name: 'bomb.docx', content: await makeZipBombDocx() },
      { name: 'deep.html', content: nestedDivs(550 * 1024), type: 'text/html' },
    ]);
    expect(status).toBe(202);
    const started = Date.now();
    const [bomb, deep] = await Promise.all(
      body.documents.map((document: { id: string }) => waitForStatus(server.baseUrl, document.id)),
    );
    expect(bomb).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/unpack to more than 64 MB/),
    });
    expect(deep).toMatchObject({ status: 'failed', error: expect.stringMatching(/more than 512 deep/) });
    // A retried failure reads "Indexing failed N times"; these were refused at once.
    expect(`${bomb.error} ${deep.error}`).not.toMatch(/failed \d+ times|Attempt \d/);
    expect(Date.now() - started).toBeLessThan(bound(15_000));
  });
});

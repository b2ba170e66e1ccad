import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { Json } from './helpers/http';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import {
  filesLeftIn,
  getJson,
  postJson,
  readEvents,
  upload,
  waitForStatus,
} from './fixtures/ingestion/ingestion-client';
import {
  BEIR_JSON,
  BEIR_JSONL,
  DOCX_HEADING,
  DOCX_PARAGRAPHS,
  HTML,
  MARKDOWN,
  PDF_PAGES,
  PLAIN_TEXT,
  makeDocx,
  makePdf,
} from './fixtures/ingestion/sample-documents';
import {
  DOCS_PAGE,
  DOCS_PAGE_HEADING_PATHS,
  DOCX_HEADING_PATHS,
  PUMP_MANUAL,
  makeStructuredDocx,
  makeStructuredPdf,
} from './fixtures/ingestion/structured-documents';

describe('document ingestion through HTTP and BullMQ (embedded PGlite, real Redis, local embedder)', () => {
  const uploadDir = mkdtempSync(join(tmpdir(), 'lumina-ingest-'));
  let server: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    server = await startTestApp(
      testEnv({
        UPLOAD_DIR: uploadDir,
        CHUNK_MAX_CHARS: '200',
        CHUNK_OVERLAP_CHARS: '0',
        EMBEDDINGS_BATCH_SIZE: '4',
      }),
    );
    dataSource = server.app.get(DataSource);
  });

  afterAll(async () => {
    await server.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  const chunksOf = (
    id: string,
  ): Promise<
    {
      ordinal: number;
      text: string;
      heading_path: string[];
      embedded: boolean;
      embedding_model: string | null;
    }[]
  > =>
    dataSource.query(
      `SELECT ordinal, text, heading_path, embedding IS NOT NULL AS embedded, embedding_model
       FROM chunks WHERE document_id = $1 ORDER BY ordinal`,
      [id],
    );

  it('ingests .txt, .md, .html, .pdf and .docx uploads to indexed chunks with vectors', async () => {
    const { status, body } = await upload(server.baseUrl, [
      { name: 'glaciers.txt', content: PLAIN_TEXT, type: 'text/plain' },
      { name: 'volcanoes.md', content: MARKDOWN },
      { name: 'tides.html', content: HTML, type: 'text/html' },
      { name: 'reefs.pdf', content: await makePdf(PDF_PAGES), type: 'application/pdf' },
      { name: 'bees.docx', content: await makeDocx(DOCX_HEADING, DOCX_PARAGRAPHS) },
    ]);
    expect(status).toBe(202);
    expect(body.documents).toHaveLength(5);
    expect(body.documents.map((d: Json) => d.title)).toEqual([
      'glaciers',
      'volcanoes',
      'tides',
      'reefs',
      'bees',
    ]);
    for (const document of body.documents) {
      expect(document).toMatchObject({
        status: 'queued',
        duplicate: false,
        jobId: `ingest-${document.id}`,
      });
    }

    const [txt, md, html, pdf, docx] = await Promise.all(
      body.documents.map((d: Json) => waitForStatus(server.baseUrl, d.id)),
    );
    for (const document of [txt, md, html, pdf, docx]) {
      expect(document).toMatchObject({ status: 'indexed', error: null });
      expect(document.chunkCount).toBeGreaterThan(0);
      const chunks = await chunksOf(document.id);
      expect(chunks).toHaveLength(document.chunkCount);
      expect(chunks.every((chunk) => chunk.embedded && chunk.embedding_model === 'use-lite-512')).toBe(true);
    }
    expect(txt.format).toBe('txt');
    expect((await chunksOf(txt.id)).map((c) => c.text).join(' ')).toContain(
      'Glaciers form where snow accumulates',
    );

    // Markdown and HTML go through the heading-aware chunker.
    expect((await chunksOf(md.id)).map((c) => c.heading_path)).toContainEqual(['Volcanoes', 'Monitoring']);
    expect(html.title).toBe('Tides & currents'); // from <title>, over the file name
    const htmlChunks = await chunksOf(html.id);
    expect(htmlChunks.map((c) => c.heading_path)).toContainEqual(['Tides', 'Spring tides']);
    expect(htmlChunks.map((c) => c.text).join(' ')).not.toMatch(/not text|color:red/);

    const pdfText = (await chunksOf(pdf.id)).map((c) => c.text).join(' ');
    expect(pdfText).toContain('Coral reefs grow in warm, shallow seas.');
    expect(pdfText).toContain('Bleaching happens');
    const docxText = (await chunksOf(docx.id)).map((c) => c.text).join(' ');
    expect(docxText).toContain('Honeybees');
    expect(docxText).toContain('Worker bees forage for nectar');

    // BM25 postings were written with the chunks, and the uploaded files are gone once indexed.
    const [{ postings }] = await dataSource.query(
      `SELECT count(*)::int AS postings FROM bm25_postings p JOIN chunks c ON c.id = p.chunk_id WHERE c.document_id = $1`,
      [pdf.id],
    );
    expect(postings).toBeGreaterThan(0);
    expect(await filesLeftIn(join(uploadDir, 'documents'))).toEqual([]);
    expect(readdirSync(join(uploadDir, 'incoming'))).toEqual([]);
  });

  it('makes each entry of a BEIR .jsonl or .json corpus its own document', async () => {
    const { status, body } = await upload(server.baseUrl, [
      { name: 'biology.jsonl', content: BEIR_JSONL },
      { name: 'cells.json', content: BEIR_JSON, type: 'application/json' },
    ]);
    expect(status).toBe(202);
    expect(body.documents.map((d: Json) => [d.externalId, d.title])).toEqual([
      ['doc-1', 'Photosynthesis'],
      ['doc-2', 'Respiration'],
      ['3', '3'],
      ['a', 'Mitosis'],
      ['b', 'Meiosis'],
    ]);
    const indexed = await Promise.all(body.documents.map((d: Json) => waitForStatus(server.baseUrl, d.id)));
    expect(indexed.map((d) => d.status)).toEqual(['indexed', 'indexed', 'indexed', 'indexed', 'indexed']);
    expect(indexed.map((d) => d.format)).toEqual(Array(5).fill('beir-entry'));
    const chunks = await chunksOf(indexed[1].id);
    expect(chunks[0].text).toBe('Cells break sugar down with oxygen to release energy.');
  });

  it('keeps a page, a report and a manual as their authors structured them: titles, heading paths, pages', async () => {
    const { body } = await upload(server.baseUrl, [
      { name: 'decimal.html', content: DOCS_PAGE, type: 'text/html' },
      { name: 'plan.docx', content: await makeStructuredDocx({ title: 'Relocation 2027' }) },
      {
        name: 'manual.pdf',
        content: await makeStructuredPdf(PUMP_MANUAL, {
          title: 'P-200 pump — service manual',
          runningHeader: 'P-200 service manual — rev. 3',
          outline: true,
        }),
        type: 'application/pdf',
      },
    ]);
    const [html, docx, pdf] = await Promise.all(
      body.documents.map((d: Json) => waitForStatus(server.baseUrl, d.id)),
    );
    expect([html, docx, pdf].map((d) => [d.status, d.title])).toEqual([
      ['indexed', 'decimal — Decimal fixed point arithmetic'],
      ['indexed', 'Relocation 2027'],
      ['indexed', 'P-200 pump — service manual'],
    ]);
    const paths = async (id: string) => [
      ...new Set((await chunksOf(id)).map((chunk) => JSON.stringify(chunk.heading_path))),
    ];
    expect(await paths(html.id)).toEqual(DOCS_PAGE_HEADING_PATHS.map((path) => JSON.stringify(path)));
    expect(await paths(docx.id)).toEqual(DOCX_HEADING_PATHS.map((path) => JSON.stringify(path)));
    expect(await paths(pdf.id)).toContainEqual(JSON.stringify(['Maintenance', 'Replacing the filter']));

    const anchors: { anchor: string }[] = await dataSource.query(
      `SELECT DISTINCT anchor FROM chunks WHERE document_id = $1 ORDER BY anchor`,
      [html.id],
    );
    expect(anchors.map((row) => row.anchor)).toContain('decimal-objects');
    const pages: { page_start: number | null; page_end: number | null }[] = await dataSource.query(
      `SELECT page_start, page_end FROM chunks WHERE document_id = ANY($1::uuid[]) ORDER BY ordinal`,
      [[pdf.id]],
    );
    expect(pages.every((row) => row.page_start !== null && row.page_end! >= row.page_start)).toBe(true);
    const unpaged: { n: number }[] = await dataSource.query(
      `SELECT count(*)::int AS n FROM chunks WHERE document_id = $1 AND page_start IS NOT NULL`,
      [html.id],
    );
    expect(unpaged[0].n).toBe(0);

    const search = await postJson(`${server.baseUrl}/rag/search`, {
      query: 'clogged intake filter pressure reading',
      settings: { documentIds: [pdf.id] },
    });
    expect(search.status).toBe(200);
    expect(search.body.results.length).toBeGreaterThan(0);
    for (const result of search.body.results) {
      expect(result.pages).toEqual({ first: expect.any(Number), last: expect.any(Number) });
    }
  });

  it('ingests text given as JSON, Markdown cut at its headings', async () => {
    const { status, body } = await postJson(`${server.baseUrl}/documents/text`, {
      title: '  Runbook  ',
      text: '# Failover\n\nPromote the standby replica.\n\n# Backups\n\nBackups run nightly at two.',
      format: 'markdown',
    });
    expect(status).toBe(202);
    expect(body).toMatchObject({ title: 'Runbook', status: 'queued', duplicate: false });
    const document = await waitForStatus(server.baseUrl, body.id);
    expect(document).toMatchObject({ status: 'indexed', format: 'md', chunkCount: 2 });
    expect((await chunksOf(body.id)).map((c) => c.heading_path)).toEqual([['Failover'], ['Backups']]);

    const refused = await postJson(`${server.baseUrl}/documents/text`, { title: 'x', text: '   ' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('text must contain words, not only spaces');
    const unknown = await postJson(`${server.baseUrl}/documents/text`, { title: 'x', text: 'y', extra: 1 });
    expect(unknown.status).toBe(400);
  });

  it('streams progress as Server-Sent Events, in status-machine order, ending at indexed', async () => {
    const long = Array.from(
      { length: 48 },
      (_, i) =>
        `Paragraph ${i + 1} explains how river deltas form where sediment settles at the river mouth.`,
    ).join('\n\n');
    const { body } = await upload(server.baseUrl, [{ name: 'deltas.txt', content: long }]);
    const id = body.documents[0].id;
    const { status, events } = await readEvents(`${server.baseUrl}/documents/${id}/events`);
    expect(status).toBe(200);
    const statuses = events.map((event) => event.status);
    expect(statuses[statuses.length - 1]).toBe('indexed');
    expect(events[events.length - 1].chunkCount).toBeGreaterThan(12);
    const order = ['queued', 'parsing', 'chunking', 'embedding', 'indexed'];
    const ranks = statuses.map((s) => order.indexOf(s));
    expect(ranks.every((rank) => rank >= 0)).toBe(true);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const embedding = events.filter((event) => event.status === 'embedding');
    expect(embedding.length).toBeGreaterThanOrEqual(3);
    const done = embedding.map((event) => event.done);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(embedding[embedding.length - 1].done).toBe(embedding[embedding.length - 1].total);

    // A finished document's stream answers once and closes; an unknown one is a 404.
    const again = await readEvents(`${server.baseUrl}/documents/${id}/events`, 5_000);
    expect(again.events.map((event) => event.status)).toEqual(['indexed']);
    const missing = await fetch(`${server.baseUrl}/documents/00000000-0000-4000-8000-000000000000/events`);
    expect(missing.status).toBe(404);
  });

  it('returns the existing document for the same bytes, with one job', async () => {
    const content = 'Identical bytes are one document. They are never ingested twice.';
    const first = await upload(server.baseUrl, [{ name: 'same.txt', content }]);
    const second = await upload(server.baseUrl, [
      { name: 'same-again.txt', content },
      { name: 'same-third.md', content },
    ]);
    expect(second.status).toBe(202);
    const id = first.body.documents[0].id;
    expect(second.body.documents.map((d: Json) => [d.id, d.duplicate])).toEqual([
      [id, true],
      [id, true],
    ]);
    await waitForStatus(server.baseUrl, id);
    const later = await upload(server.baseUrl, [{ name: 'same.txt', content }]);
    expect(later.body.documents[0]).toMatchObject({ id, duplicate: true, status: 'indexed', jobId: null });
    const [{ n }] = await dataSource.query(
      `SELECT count(*)::int AS n FROM documents WHERE title LIKE 'same%'`,
    );
    expect(n).toBe(1);
    const chunks = await chunksOf(id);
    expect(new Set(chunks.map((c) => c.ordinal)).size).toBe(chunks.length);
  });

  it('serves the queue dashboard to loopback clients when no ADMIN_API_KEY is set, not through a proxy', async () => {
    const page = await fetch(`${server.baseUrl}/admin/queues`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);
    const proxied = await fetch(`${server.baseUrl}/admin/queues/api/queues`, {
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(proxied.status).toBe(401);
  });

  it('lists documents by page, searches titles, pages chunks, and refuses bad pages', async () => {
    const all = await getJson(`${server.baseUrl}/documents?limit=2&page=2`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 2, limit: 2 });
    expect(all.body.items).toHaveLength(2);
    expect(all.body.totalPages).toBe(Math.ceil(all.body.total / 2));
    expect(all.body.total).toBeGreaterThanOrEqual(12);

    const found = await getJson(`${server.baseUrl}/documents?search=VOLCA`);
    // Titled by its first level-1 heading once parsed.
    expect(found.body.items.map((d: Json) => d.title)).toEqual(['Volcanoes']);
    const literal = await getJson(`${server.baseUrl}/documents?search=${encodeURIComponent('%')}`);
    expect(literal.body.total).toBe(0);

    expect((await getJson(`${server.baseUrl}/documents?limit=1000`)).body.limit).toBe(100);
    for (const bad of ['page=0', 'limit=0', 'page=-1', 'limit=abc', 'status=done']) {
      const answer = await getJson(`${server.baseUrl}/documents?${bad}`);
      expect(answer.status).toBe(400);
    }

    const id = found.body.items[0].id;
    const chunks = await getJson(`${server.baseUrl}/documents/${id}/chunks?limit=1&page=2`);
    expect(chunks.status).toBe(200);
    expect(chunks.body).toMatchObject({ page: 2, limit: 1 });
    expect(chunks.body.items).toHaveLength(1);
    expect(chunks.body.items[0]).toMatchObject({
      ordinal: 1,
      hasEmbedding: true,
      embeddingModel: 'use-lite-512',
    });
    expect(chunks.body.total).toBe(chunks.body.totalPages);

    expect((await getJson(`${server.baseUrl}/documents/not-a-uuid`)).status).toBe(400);
    const missing = await getJson(`${server.baseUrl}/documents/00000000-0000-4000-8000-000000000000`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/No document has the id/);
  });
});

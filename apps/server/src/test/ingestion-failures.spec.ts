import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { QueueName } from '../jobs/queue-name.enum';
import { readJson } from './helpers/http';
import type { Json } from './helpers/http';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import {
  filesLeftIn,
  getJson,
  readEvents,
  sleep,
  upload,
  waitForStatus,
} from './fixtures/ingestion/ingestion-client';
import { PDF_PAGES, PLAIN_TEXT, makePdf } from './fixtures/ingestion/sample-documents';

/** A text of `sentences` distinct sentences (distinct, so the embedding cache cannot answer for them). */
function longText(topic: string, sentences: number): string {
  return Array.from(
    { length: sentences },
    (_, i) => `Sentence ${i + 1} about ${topic} notes fact number ${i * 7 + 3} with care.`,
  ).join(' ');
}

describe('ingestion refuses bad input clearly and carries on', () => {
  const uploadDir = mkdtempSync(join(tmpdir(), 'lumina-ingest-bad-'));
  let server: TestApp;
  let dataSource: DataSource;
  let queue: Queue;

  beforeAll(async () => {
    server = await startTestApp(
      testEnv({
        UPLOAD_DIR: uploadDir,
        UPLOAD_MAX_BYTES: String(256 * 1024),
        UPLOAD_MAX_FILES: '6',
        CHUNK_MAX_CHARS: '200',
        CHUNK_OVERLAP_CHARS: '0',
        EMBEDDINGS_BATCH_SIZE: '4',
      }),
    );
    dataSource = server.app.get(DataSource);
    queue = server.app.get<Queue>(getQueueToken(QueueName.Ingestion), { strict: false });
  });

  afterAll(async () => {
    await server.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  const documentCount = async (): Promise<number> =>
    (await dataSource.query(`SELECT count(*)::int AS n FROM documents`))[0].n;

  it('answers 422 for files that can never be read, naming each one, and stores nothing', async () => {
    const pdf = await makePdf(PDF_PAGES);
    const garbage = Buffer.concat([randomBytes(2000), Buffer.from([0])]);
    const before = await documentCount();
    const cases: [string, Buffer | string, RegExp][] = [
      ['empty.txt', '', /"empty\.txt" is empty/],
      ['garbage.txt', garbage, /"garbage\.txt" is not text: it holds binary data/],
      ['latin1.txt', Buffer.from('Un caf\xe9 cr\xe8me', 'latin1'), /"latin1\.txt" is not valid UTF-8 text/],
      ['cut.pdf', pdf.subarray(0, Math.floor(pdf.length / 2)), /"cut\.pdf" is incomplete/],
      ['fake.pdf', 'just some words', /"fake\.pdf" is not a PDF file/],
      ['fake.docx', 'not a zip', /"fake\.docx" is not a Word/],
      [
        'bad.jsonl',
        '{"_id":"1","text":"fine"}\n{"_id":"2","title":"no text"}',
        /"bad\.jsonl" line 2: "text" must be a string/,
      ],
      ['bad.json', '{"not": "a corpus"}', /"bad\.json" must hold a BEIR-style corpus/],
    ];
    for (const [name, content, message] of cases) {
      const { status, body } = await upload(server.baseUrl, [{ name, content }]);
      expect({ name, status }).toEqual({ name, status: 422 });
      expect(body.message).toMatch(message);
      expect(body.message).toMatch(/Nothing was stored\.$/);
      expect(body.files).toEqual([{ file: name, problem: expect.any(String) }]);
    }
    // One bad file refuses the whole request: the good one beside it is not stored either.
    const mixed = await upload(server.baseUrl, [
      { name: 'fine.txt', content: 'A perfectly fine file.' },
      { name: 'empty.md', content: '' },
    ]);
    expect(mixed.status).toBe(422);
    expect(await documentCount()).toBe(before);
    expect(readdirSync(join(uploadDir, 'incoming'))).toEqual([]);
    expect(await filesLeftIn(join(uploadDir, 'documents'))).toEqual([]);
  });

  it('answers 413 above the size or file-count limit and 415 for unsupported types', async () => {
    const big = await upload(server.baseUrl, [{ name: 'big.txt', content: 'a'.repeat(256 * 1024 + 1) }]);
    expect(big.status).toBe(413);
    expect(big.body.message).toBe(
      '"big.txt" is larger than the upload limit of 256 KB per file (UPLOAD_MAX_BYTES). Nothing was stored.',
    );
    const atLimit = await upload(server.baseUrl, [{ name: 'limit.txt', content: 'b'.repeat(256 * 1024) }]);
    expect(atLimit.status).toBe(202);
    // Accepted at exactly the limit; not worth indexing in this test.
    await fetch(`${server.baseUrl}/documents/${atLimit.body.documents[0].id}`, { method: 'DELETE' });

    const many = await upload(
      server.baseUrl,
      Array.from({ length: 7 }, (_, i) => ({ name: `n${i}.txt`, content: `file ${i}` })),
    );
    expect(many.status).toBe(413);
    expect(many.body.message).toMatch(/At most 6 files/);

    const exe = await upload(server.baseUrl, [{ name: 'setup.exe', content: 'MZ' }]);
    expect(exe.status).toBe(415);
    expect(exe.body.message).toMatch(
      /"setup\.exe" is not a supported document type\. Supported: .*\.txt.*\.md.*\.html.*\.pdf.*\.docx.*\.jsonl.*\.json/,
    );

    const json = await fetch(`${server.baseUrl}/documents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    const none = await fetch(`${server.baseUrl}/documents`, {
      method: 'POST',
      headers: { 'x-lumina-client': 'test' },
      body: new FormData(),
    });
    expect([400, 415]).toContain(none.status);
    expect(readdirSync(join(uploadDir, 'incoming'))).toEqual([]);
  });

  it('fails unreadable documents in the job with a sentence and no retries, while the others are indexed', async () => {
    const pdf = await makePdf(PDF_PAGES);
    // Header and end marker intact, the body between them destroyed: only parsing can tell.
    const corrupt = Buffer.concat([pdf.subarray(0, 20), randomBytes(400), pdf.subarray(pdf.length - 30)]);
    const blank = await makePdf(['']);
    const { status, body } = await upload(server.baseUrl, [
      { name: 'corrupt.pdf', content: corrupt },
      { name: 'good.txt', content: PLAIN_TEXT },
      { name: 'scanned.pdf', content: blank },
      { name: 'scripts-only.html', content: '<html><body><script>alert(1)</script></body></html>' },
      { name: 'also-good.md', content: '# Deserts\n\nDeserts get less than 250 mm of rain a year.' },
    ]);
    expect(status).toBe(202);
    const [corruptDoc, good, scanned, scripts, alsoGood] = await Promise.all(
      body.documents.map((d: Json) => waitForStatus(server.baseUrl, d.id)),
    );
    expect(corruptDoc.status).toBe('failed');
    expect(corruptDoc.error).toMatch(/^"corrupt\.pdf" could not be read as a PDF/);
    expect(scanned).toMatchObject({ status: 'failed', error: expect.stringMatching(/has no text layer/) });
    expect(scripts).toMatchObject({
      status: 'failed',
      error: '"scripts-only.html" contains no text to index.',
    });
    expect(good).toMatchObject({ status: 'indexed', error: null });
    expect(alsoGood).toMatchObject({ status: 'indexed', error: null });
    for (const failed of [corruptDoc, scanned, scripts]) {
      const job = await queue.getJob(body.documents.find((d: Json) => d.id === failed.id).jobId);
      expect(await job!.getState()).toBe('failed');
      expect(job!.attemptsMade).toBe(1); // UnrecoverableError: no retries
      expect(failed.chunkCount).toBe(0);
    }
    expect(await filesLeftIn(join(uploadDir, 'documents'))).toEqual([]);
    expect((await getJson(`${server.baseUrl}/health`)).body.status).toBe('ok');
  });

  it('deletes a document mid-ingestion and leaves nothing behind', async () => {
    const { body } = await upload(server.baseUrl, [
      { name: 'long.txt', content: longText('tectonic plates', 320) },
    ]);
    const { id, jobId } = body.documents[0];
    const events = readEvents(`${server.baseUrl}/documents/${id}/events`);
    await waitForStatus(server.baseUrl, id, ['embedding'], 20_000);

    const response = await fetch(`${server.baseUrl}/documents/${id}`, { method: 'DELETE' });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ id, deleted: true, cancelledJob: true });

    const streamed = (await events).events;
    expect(streamed[streamed.length - 1].status).toBe('cancelled');
    // The running job notices at its next batch and finishes without writing anything.
    for (let i = 0; i < 100 && (await (await queue.getJob(jobId))?.getState()) === 'active'; i++)
      await sleep(100);
    expect(await (await queue.getJob(jobId))!.getState()).toBe('completed');
    expect((await queue.getJob(jobId))!.returnvalue).toMatchObject({ outcome: 'cancelled' });

    expect(await dataSource.query(`SELECT id FROM documents WHERE id = $1`, [id])).toEqual([]);
    expect(await dataSource.query(`SELECT id FROM chunks WHERE document_id = $1`, [id])).toEqual([]);
    const [corpus] = await dataSource.query(
      `SELECT (SELECT chunk_count FROM bm25_corpus) AS kept, (SELECT count(*) FROM chunks) AS actual,
              (SELECT count(*) FROM bm25_postings p LEFT JOIN chunks c ON c.id = p.chunk_id WHERE c.id IS NULL) AS orphans`,
    );
    expect(Number(corpus.kept)).toBe(Number(corpus.actual));
    expect(Number(corpus.orphans)).toBe(0);
    expect(await filesLeftIn(join(uploadDir, 'documents'))).toEqual([]);
    expect((await getJson(`${server.baseUrl}/documents/${id}`)).status).toBe(404);

    // The same bytes can be uploaded again: a new document, with a job of its own.
    const again = await upload(server.baseUrl, [
      { name: 'long.txt', content: longText('tectonic plates', 320) },
    ]);
    const newId = again.body.documents[0].id;
    expect(newId).not.toBe(id);
    expect(again.body.documents[0]).toMatchObject({ duplicate: false, jobId: `ingest-${newId}` });
    expect((await waitForStatus(server.baseUrl, again.body.documents[0].id)).status).toBe('indexed');
  });

  it('removes a queued job that has not started when its document is deleted', async () => {
    await queue.pause(); // nothing starts until the deletion is done
    try {
      const { body } = await upload(server.baseUrl, [
        { name: 'first.txt', content: longText('ocean currents', 20) },
        { name: 'second.txt', content: longText('river erosion', 20) },
      ]);
      const [first, second] = body.documents;
      expect((await getJson(`${server.baseUrl}/documents/${second.id}`)).body.status).toBe('queued');
      expect(await (await queue.getJob(second.jobId))!.getState()).toBe('waiting');
      const response = await fetch(`${server.baseUrl}/documents/${second.id}`, { method: 'DELETE' });
      expect(await readJson(response)).toEqual({ id: second.id, deleted: true, cancelledJob: true });
      expect(await queue.getJob(second.jobId)).toBeUndefined();
      expect(readdirSync(join(uploadDir, 'documents'))).toEqual([`${first.id}.txt`]);
      await queue.resume();
      expect((await waitForStatus(server.baseUrl, first.id)).status).toBe('indexed');
      expect((await fetch(`${server.baseUrl}/documents/${second.id}`, { method: 'DELETE' })).status).toBe(
        404,
      );
    } finally {
      await queue.resume();
    }
  });
});

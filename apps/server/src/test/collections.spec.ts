import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { QueueName } from '../jobs/queue-name.enum';
import { sleep, waitForStatus } from './fixtures/ingestion/ingestion-client';
import type { Json } from './helpers/http';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const RUNBOOK =
  'Promote the standby replica with pg_ctl promote. Then repoint the application connection string to the ' +
  'new primary. Nightly base backups run at two in the morning.';
const GLACIERS =
  'Glaciers carve valleys as they move. Meltwater carries sediment into braided rivers below the ice.';
const LICHENS = 'Lichens are partnerships of fungi and algae. They grow slowly on bare rock and bark.';

describe('collections over REST, with their documents and their deletion job (embedded PGlite, real Redis)', () => {
  const uploadDir = mkdtempSync(join(tmpdir(), 'lumina-collections-'));
  let server: TestApp;
  let dataSource: DataSource;
  let queue: Queue;

  const call = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  const created = async (body: Record<string, unknown>): Promise<Json> => {
    const response = await call('POST', '/collections', body);
    expect(response.status).toBe(201);
    return response.body;
  };
  /** POST /documents with one file and the form fields, as the web app sends them. */
  const uploadInto = async (
    fields: Record<string, string>,
    name: string,
    text: string,
  ): Promise<{ status: number; body: Json }> => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('files', new Blob([text], { type: 'text/plain' }), name);
    const response = await fetch(`${server.baseUrl}/documents`, {
      method: 'POST',
      body: form,
      headers: { 'x-lumina-client': 'test' },
    });
    return { status: response.status, body: await response.json() };
  };
  const addText = async (collectionId: string, title: string, text: string): Promise<Json> => {
    const response = await call('POST', '/documents/text', { title, text, collectionId });
    expect(response.status).toBe(202);
    return response.body;
  };
  const indexed = async (id: string): Promise<void> => {
    expect(await waitForStatus(server.baseUrl, id, ['indexed', 'failed'], 30_000)).toMatchObject({
      status: 'indexed',
    });
  };
  /** What the BM25 tables and the chunks hold for a collection. */
  const storage = async (collectionId: string) => {
    const [row] = await dataSource.query(
      `SELECT (SELECT count(*)::int FROM chunks WHERE collection_id = $1) AS chunks,
              (SELECT count(*)::int FROM bm25_postings WHERE collection_id = $1) AS postings,
              (SELECT count(*)::int FROM bm25_term_slots WHERE collection_id = $1) AS "termRows",
              (SELECT count(*)::int FROM bm25_corpus_slots WHERE collection_id = $1) AS "corpusRows",
              (SELECT coalesce(sum(chunk_count), 0)::int FROM bm25_corpus_slots WHERE collection_id = $1)
                AS "countedChunks"`,
      [collectionId],
    );
    return row as {
      chunks: number;
      postings: number;
      termRows: number;
      corpusRows: number;
      countedChunks: number;
    };
  };
  /** The job once it has finished; undefined when there is no such job (or no longer). */
  const waitForJob = async (jobId: string) => {
    for (let i = 0; i < 300; i++) {
      const job = await queue.getJob(jobId);
      if (!job || job.finishedOn !== undefined) return job;
      await sleep(100);
    }
    throw new Error(`job ${jobId} did not finish in 30 s`);
  };

  beforeAll(async () => {
    server = await startTestApp(testEnv({ UPLOAD_DIR: uploadDir, EMBEDDINGS_PROVIDER: 'hash' }));
    dataSource = server.app.get(DataSource);
    queue = server.app.get<Queue>(getQueueToken(QueueName.Ingestion), { strict: false });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  describe('CRUD', () => {
    let runbooks: Json;
    let billing: Json;

    beforeAll(async () => {
      runbooks = await created({ name: 'On-call Runbooks (2026)' });
      billing = await created({ name: 'Billing', slug: 'money', description: 'Invoices and refunds.' });
      for (let i = 1; i <= 3; i++) await created({ name: `Paging ${i}` });
    });

    it('creates a collection, its slug made from its name when none is given', () => {
      expect(runbooks).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'On-call Runbooks (2026)',
        slug: 'on-call-runbooks-2026',
        description: '',
        documentCount: 0,
        chunkCount: 0,
        bankCount: 0,
        deleting: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(billing).toMatchObject({ slug: 'money', description: 'Invoices and refunds.' });
    });

    it('pages through the collections oldest first, the Default one first; searches in the name', async () => {
      const first = await call('GET', '/collections?limit=2');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ page: 1, limit: 2, total: 6, totalPages: 3 });
      expect(first.body.items.map((c: Json) => c.slug)).toEqual(['default', 'on-call-runbooks-2026']);
      const last = await call('GET', '/collections?limit=2&page=3');
      expect(last.body.items.map((c: Json) => c.name)).toEqual(['Paging 2', 'Paging 3']);
      const beyond = await call('GET', '/collections?limit=2&page=4');
      expect(beyond.body).toMatchObject({ items: [], total: 6, totalPages: 3 });
      const found = await call('GET', '/collections?search=PAGING');
      expect(found.body.items.map((c: Json) => c.name)).toEqual(['Paging 1', 'Paging 2', 'Paging 3']);
      expect((await call('GET', '/collections?search=100%25')).body.total).toBe(0);
    });

    it('reads one collection and changes its name, slug and description', async () => {
      expect((await call('GET', `/collections/${runbooks.id}`)).body).toEqual(runbooks);
      const renamed = await call('PATCH', `/collections/${runbooks.id}`, {
        name: '  Runbooks  ',
        description: 'Failover and paging.',
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({
        id: runbooks.id,
        name: 'Runbooks',
        slug: 'on-call-runbooks-2026',
        description: 'Failover and paging.',
      });
      const reslugged = await call('PATCH', `/collections/${runbooks.id}`, { slug: 'runbooks' });
      expect(reslugged.body).toMatchObject({ name: 'Runbooks', slug: 'runbooks' });
      expect(Date.parse(reslugged.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(runbooks.updatedAt));
    });

    it('answers a slug that is taken with a 409 that says so', async () => {
      const given = await call('POST', '/collections', { name: 'Finance', slug: 'money' });
      expect(given.status).toBe(409);
      expect(given.body).toMatchObject({
        code: 'conflict',
        message: 'Another collection already has the slug "money"; choose another slug.',
      });
      const made = await call('POST', '/collections', { name: 'Money' });
      expect(made.status).toBe(409);
      expect(made.body.message).toMatch(/slug "money" \(made from the name\)/);
      const changed = await call('PATCH', `/collections/${runbooks.id}`, { slug: 'money' });
      expect(changed.status).toBe(409);
      expect(changed.body.message).toMatch(/slug "money"/);
      expect((await call('GET', '/collections?search=Finance')).body.total).toBe(0);
    });

    it('lets a key read the collections it is granted, and only an admin key change them', async () => {
      const created = await call('POST', '/auth/keys', {
        name: 'Reader',
        role: 'user',
        grants: [{ collectionId: billing.id, access: 'read' }],
      });
      expect(created.status).toBe(201);
      const asUser = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${server.baseUrl}${path}`, {
          method,
          headers: { 'x-api-key': created.body.key, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return response.status;
      };
      expect(await asUser('GET', '/collections')).toBe(200);
      expect(await asUser('GET', `/collections/${billing.id}`)).toBe(200);
      expect(await asUser('POST', '/collections', { name: 'Mine' })).toBe(403);
      expect(await asUser('PATCH', `/collections/${billing.id}`, { name: 'Mine' })).toBe(403);
      expect(await asUser('DELETE', `/collections/${billing.id}`)).toBe(403);
      // Moving is not an admin route any more (a write grant on both collections): no such document.
      expect(await asUser('POST', `/documents/${UNKNOWN}/move`, { collectionId: billing.id })).toBe(404);
      // A collection it is not granted is one it does not see.
      expect(await asUser('GET', `/collections/${runbooks.id}`)).toBe(404);
      expect((await call('GET', `/collections/${billing.id}`)).body).toMatchObject({
        name: 'Billing',
        deleting: false,
      });
    });

    it('refuses malformed requests with 400s naming the field, and unknown ids with 404s', async () => {
      const cases: [string, string, unknown, RegExp][] = [
        ['POST', '/collections', {}, /name/],
        ['POST', '/collections', { name: '   ' }, /name/],
        ['POST', '/collections', { name: 'A', slug: 'Not A Slug' }, /slug must be lower-case/],
        ['POST', '/collections', { name: 'A', owner: 'me' }, /owner/],
        ['POST', '/collections', { name: 'x'.repeat(121) }, /name/],
        ['PATCH', `/collections/${runbooks.id}`, {}, /name one of name, slug or description/],
        ['GET', '/collections?limit=0', undefined, /limit/],
        ['GET', '/collections/not-a-uuid', undefined, /uuid/i],
      ];
      for (const [method, path, body, message] of cases) {
        const response = await call(method, path, body);
        expect({ method, path, status: response.status }).toEqual({ method, path, status: 400 });
        expect(JSON.stringify(response.body.message)).toMatch(message);
      }
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { name: 'Gone' }],
        ['DELETE', undefined],
      ] as const) {
        const response = await call(method, `/collections/${UNKNOWN}`, body);
        expect(response.status).toBe(404);
        expect(response.body.message).toBe(`No collection has the id ${UNKNOWN}.`);
      }
    });
  });

  describe('documents in collections', () => {
    let north: Json;
    let south: Json;
    let inNorth: Json;
    let inSouth: Json;

    beforeAll(async () => {
      north = await created({ name: 'North' });
      south = await created({ name: 'South' });
    });

    it('stores the same bytes in two collections as two documents, once in each', async () => {
      inNorth = await addText(north.id, 'Glaciers', GLACIERS);
      inSouth = await addText(south.id, 'Glaciers', GLACIERS);
      expect(inNorth).toMatchObject({ duplicate: false, status: 'queued' });
      expect(inSouth).toMatchObject({ duplicate: false, status: 'queued' });
      expect(inSouth.id).not.toBe(inNorth.id);
      // Each document has its own job, named by the document.
      expect(inNorth.jobId).toBe(`ingest-${inNorth.id}`);
      expect(inSouth.jobId).toBe(`ingest-${inSouth.id}`);
      await indexed(inNorth.id);
      await indexed(inSouth.id);

      // The same bytes again, as text or as a file, are the collection's existing document.
      expect(await addText(north.id, 'Glaciers again', GLACIERS)).toMatchObject({
        id: inNorth.id,
        duplicate: true,
        status: 'indexed',
      });
      const file = await uploadInto({ collectionId: south.id }, 'glaciers.txt', GLACIERS);
      expect(file.status).toBe(202);
      expect(file.body.documents).toEqual([expect.objectContaining({ id: inSouth.id, duplicate: true })]);

      const [{ copies }] = await dataSource.query(
        `SELECT count(*)::int AS copies FROM documents WHERE content_hash =
           (SELECT content_hash FROM documents WHERE id = $1)`,
        [inNorth.id],
      );
      expect(copies).toBe(2);
      const chunks = await dataSource.query(
        `SELECT DISTINCT d.collection_id = c.collection_id AS same FROM chunks c JOIN documents d ON d.id = c.document_id
         WHERE d.id = ANY($1::uuid[])`,
        [[inNorth.id, inSouth.id]],
      );
      expect(chunks).toEqual([{ same: true }]);
    });

    it('puts a document without a collection into the Default one; refuses an unknown collection', async () => {
      const plain = await call('POST', '/documents/text', { title: 'Lichens', text: LICHENS });
      expect(plain.status).toBe(202);
      const [{ slug }] = await dataSource.query(
        `SELECT c.slug FROM documents d JOIN collections c ON c.id = d.collection_id WHERE d.id = $1`,
        [plain.body.id],
      );
      expect(slug).toBe('default');
      await indexed(plain.body.id);

      const unknownText = await call('POST', '/documents/text', {
        title: 'X',
        text: 'x y',
        collectionId: UNKNOWN,
      });
      expect(unknownText.status).toBe(404);
      expect(unknownText.body.message).toBe(`No collection has the id ${UNKNOWN}.`);
      const unknownFile = await uploadInto({ collectionId: UNKNOWN }, 'x.txt', 'Nothing to see here.');
      expect(unknownFile.status).toBe(404);
      const malformed = await uploadInto({ collectionId: 'north' }, 'x.txt', 'Nothing to see here.');
      expect(malformed.status).toBe(400);
      expect(JSON.stringify(malformed.body.message)).toMatch(/collectionId/);
      const [{ stray }] = await dataSource.query(
        `SELECT count(*)::int AS stray FROM documents WHERE title IN ('X', 'x')`,
      );
      expect(stray).toBe(0);
    });

    it('lists the documents of one collection', async () => {
      const listed = await call('GET', `/documents?collectionId=${north.id}`);
      expect(listed.status).toBe(200);
      expect(listed.body.items.map((d: Json) => [d.id, d.collectionId])).toEqual([[inNorth.id, north.id]]);
      expect(await call('GET', `/documents?collectionId=${UNKNOWN}`)).toMatchObject({
        status: 404,
        body: { message: `No collection has the id ${UNKNOWN}.` },
      });
      expect((await call('GET', '/documents?collectionId=north')).status).toBe(400);
      const counted = await call('GET', `/collections/${north.id}`);
      const { chunks } = await storage(north.id);
      expect(chunks).toBeGreaterThan(0);
      expect(counted.body).toMatchObject({ documentCount: 1, chunkCount: chunks, bankCount: 0 });
    });

    it('moves a document with its chunks, postings and statistics in one go', async () => {
      const east = await created({ name: 'East' });
      const lichens = await addText(north.id, 'Lichens', LICHENS);
      await indexed(lichens.id);
      const northBefore = await storage(north.id);
      const [{ moving }] = await dataSource.query(
        `SELECT count(*)::int AS moving FROM chunks WHERE document_id = $1`,
        [lichens.id],
      );

      const moved = await call('POST', `/documents/${lichens.id}/move`, { collectionId: east.id });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ id: lichens.id, collectionId: east.id, status: 'indexed' });
      const eastAfter = await storage(east.id);
      expect(eastAfter).toMatchObject({ chunks: moving, countedChunks: moving, corpusRows: 1 });
      expect(eastAfter.postings).toBeGreaterThan(0);
      const northAfter = await storage(north.id);
      expect(northAfter.chunks).toBe(northBefore.chunks - moving);
      expect(northAfter.countedChunks).toBe(northBefore.countedChunks - moving);
      expect(northAfter.postings + eastAfter.postings).toBe(northBefore.postings);
      const [{ misplaced }] = await dataSource.query(
        `SELECT count(*)::int AS misplaced FROM bm25_postings p JOIN chunks c ON c.id = p.chunk_id
         WHERE p.collection_id <> c.collection_id`,
      );
      expect(misplaced).toBe(0);
      expect((await call('GET', `/documents?collectionId=${east.id}`)).body.items).toHaveLength(1);

      // Moving it where it is changes nothing.
      const again = await call('POST', `/documents/${lichens.id}/move`, { collectionId: east.id });
      expect(again).toMatchObject({ status: 200, body: { collectionId: east.id } });
    });

    it("an evaluation says a bank's expected source was moved out of its collection, instead of missing it silently", async () => {
      const west = await created({ name: 'West' });
      const mosses = await addText(north.id, 'Mosses', 'Mosses hold water in their leaves like sponges.');
      await indexed(mosses.id);
      const bank = await call('POST', '/question-banks', { name: 'Mosses', collectionId: north.id });
      expect(bank.status).toBe(201);
      const item = await call('POST', `/question-banks/${bank.body.id}/items`, {
        question: 'How do mosses hold water?',
        expectedSources: [{ documentId: mosses.id }],
      });
      expect(item.status).toBe(201);
      expect((await call('POST', `/documents/${mosses.id}/move`, { collectionId: west.id })).status).toBe(
        200,
      );

      const queued = await call('POST', `/question-banks/${bank.body.id}/evaluate`, {
        settings: { ranker: 'bm25' },
      });
      expect(queued.status).toBe(202);
      let run: Json = queued.body;
      for (const until = Date.now() + 45_000; run.status !== 'completed' && run.status !== 'failed';) {
        if (Date.now() > until) throw new Error(`run ${queued.body.id} still ${run.status}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        run = (await call('GET', `/eval-runs/${queued.body.id}`)).body;
      }
      expect(run.status).toBe('completed');
      expect(run.perItem[0].warnings).toContain(
        `expected source ${mosses.id} is no longer in the bank's collection (deleted, re-indexed or moved out)`,
      );
      // Its own search no longer finds it: the bank's collection holds nothing of it.
      expect(run.perItem[0].retrievedChunkIds).toEqual([]);
    });

    it('refuses to move a file into a collection that holds it, and unknown documents or collections', async () => {
      const duplicate = await call('POST', `/documents/${inNorth.id}/move`, { collectionId: south.id });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.message).toBe(
        `Collection ${south.id} already holds the same file as document ${inNorth.id} (document ${inSouth.id}); ` +
          'a collection holds each file once.',
      );
      expect((await call('GET', `/documents/${inNorth.id}`)).body.collectionId).toBe(north.id);

      const noDocument = await call('POST', `/documents/${UNKNOWN}/move`, { collectionId: south.id });
      expect(noDocument.status).toBe(404);
      expect(noDocument.body.message).toBe(`No document has the id ${UNKNOWN}.`);
      const noCollection = await call('POST', `/documents/${inNorth.id}/move`, { collectionId: UNKNOWN });
      expect(noCollection.status).toBe(404);
      expect(noCollection.body.message).toBe(`No collection has the id ${UNKNOWN}.`);
      const noBody = await call('POST', `/documents/${inNorth.id}/move`, {});
      expect(noBody.status).toBe(400);
      expect(JSON.stringify(noBody.body.message)).toMatch(/collectionId/);
    });
  });

  describe('deletion', () => {
    it('marks the collection at once, refuses changes while its job runs, then the job removes it and only it', async () => {
      const doomed = await created({ name: 'Doomed' });
      const kept = await created({ name: 'Kept' });
      const first = await addText(doomed.id, 'Runbook', RUNBOOK);
      const second = await addText(doomed.id, 'Glaciers', GLACIERS);
      const survivor = await addText(kept.id, 'Runbook', RUNBOOK);
      for (const { id } of [first, second, survivor]) await indexed(id);
      const bank = await call('POST', '/question-banks', { name: 'Doomed questions' });
      await dataSource.query(`UPDATE question_banks SET collection_id = $2 WHERE id = $1`, [
        bank.body.id,
        doomed.id,
      ]);
      // A file still waiting for a worker is removed with its document.
      const waitingFile = join(uploadDir, 'documents', `${first.id}.txt`);
      writeFileSync(waitingFile, RUNBOOK);
      const doomedBefore = await storage(doomed.id);
      const keptBefore = await storage(kept.id);
      expect(doomedBefore.postings).toBeGreaterThan(0);
      expect((await call('GET', `/collections/${doomed.id}`)).body).toMatchObject({
        documentCount: 2,
        chunkCount: doomedBefore.chunks,
        bankCount: 1,
      });

      // With the queue paused the job waits, so the collection stays "being deleted".
      await queue.pause();
      let jobId: string;
      let late: Json;
      try {
        // A document still waiting for its ingestion job goes too, whichever job runs first.
        late = await addText(doomed.id, 'Lichens', LICHENS);
        const deletion = await call('DELETE', `/collections/${doomed.id}`);
        expect(deletion.status).toBe(202);
        expect(deletion.body).toEqual({
          id: doomed.id,
          deleting: true,
          jobId: `delete-collection-${doomed.id}`,
        });
        jobId = deletion.body.jobId;

        expect((await call('GET', `/collections/${doomed.id}`)).body).toMatchObject({ deleting: true });
        const twice = await call('DELETE', `/collections/${doomed.id}`);
        expect(twice.status).toBe(409);
        expect(twice.body.message).toBe(`Collection ${doomed.id} is already being deleted.`);
        const upload = await call('POST', '/documents/text', {
          title: 'Late',
          text: 'Arrives while the collection goes.',
          collectionId: doomed.id,
        });
        expect(upload.status).toBe(409);
        expect(upload.body.message).toBe(
          `Collection ${doomed.id} is being deleted; it takes no new documents.`,
        );
        const file = await uploadInto(
          { collectionId: doomed.id },
          'late.txt',
          'Arrives while the collection goes.',
        );
        expect(file.status).toBe(409);
        const rename = await call('PATCH', `/collections/${doomed.id}`, { name: 'Saved' });
        expect(rename.status).toBe(409);
        expect(rename.body.message).toBe(
          `Collection ${doomed.id} is being deleted; it can no longer be changed.`,
        );
        const moveIn = await call('POST', `/documents/${survivor.id}/move`, { collectionId: doomed.id });
        expect(moveIn.status).toBe(409);
        const moveOut = await call('POST', `/documents/${first.id}/move`, { collectionId: kept.id });
        expect(moveOut.status).toBe(409);
      } finally {
        await queue.resume();
      }

      const job = (await waitForJob(jobId))!;
      expect(await job.getState()).toBe('completed');
      expect(job.returnvalue).toEqual({
        collectionId: doomed.id,
        outcome: 'deleted',
        documents: 3,
        chunks: expect.any(Number),
        banks: 1,
      });
      expect(job.returnvalue.chunks).toBeGreaterThanOrEqual(doomedBefore.chunks);
      const ingestion = await waitForJob(late.jobId);
      expect(ingestion === undefined || ['completed', 'failed'].includes(await ingestion.getState())).toBe(
        true,
      );
      expect((await call('GET', `/collections/${doomed.id}`)).status).toBe(404);
      for (const { id } of [first, second, late])
        expect((await call('GET', `/documents/${id}`)).status).toBe(404);
      expect(existsSync(waitingFile)).toBe(false);
      expect((await call('GET', `/question-banks/${bank.body.id}`)).status).toBe(404);
      expect(await storage(doomed.id)).toEqual({
        chunks: 0,
        postings: 0,
        termRows: 0,
        corpusRows: 0,
        countedChunks: 0,
      });
      // The other collection, holding the same text, is untouched and still found.
      expect(await storage(kept.id)).toEqual(keptBefore);
      const search = await call('POST', '/rag/search', { query: 'promote the standby replica' });
      expect(search.status).toBe(200);
      const found = search.body.results.map((r: Json) => r.documentId);
      expect(found).toContain(survivor.id);
      expect(found).not.toContain(first.id);

      // Deleted, it can be deleted no more; a collection with its slug can be made again.
      expect((await call('DELETE', `/collections/${doomed.id}`)).status).toBe(404);
      expect(await created({ name: 'Doomed' })).toMatchObject({ slug: 'doomed', documentCount: 0 });
    }, 120_000);
  });
});

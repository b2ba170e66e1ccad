import { DataSource } from 'typeorm';
import type { Json } from './helpers/http';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('question banks over REST (embedded PGlite)', () => {
  let server: TestApp;
  let dataSource: DataSource;
  let documentIds: string[];

  const call = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Json; text: string; headers: Headers }> => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: Json = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  };
  const messages = (body: Json): string => JSON.stringify(body?.message);

  const createTemplate = async (name: string, kind = 'definition') => {
    const response = await call('POST', '/question-templates', {
      name,
      kind,
      promptTemplate: 'Ask what {{heading}} says. Passage: {{passage}}',
    });
    expect(response.status).toBe(201);
    return response.body;
  };
  const createBank = async (body: Record<string, unknown>) => {
    const response = await call('POST', '/question-banks', body);
    expect(response.status).toBe(201);
    return response.body;
  };

  beforeAll(async () => {
    server = await startTestApp(testEnv());
    dataSource = server.app.get(DataSource);
    documentIds = await seedDocuments(dataSource, null, RUNBOOK_CORPUS);
    await dataSource.query(`UPDATE documents SET external_id = 'runbook' WHERE id = $1`, [documentIds[0]]);
    await dataSource.query(`UPDATE documents SET external_id = 'cache' WHERE id = $1`, [documentIds[1]]);
  });

  afterAll(async () => {
    await server.close();
  });

  describe('pagination', () => {
    let templateId: string;

    beforeAll(async () => {
      templateId = (await createTemplate('Paging template')).id;
      for (let i = 1; i <= 5; i++) {
        await createBank({ name: `Paging bank ${i}`, templateId, tags: ['paging'] });
      }
    });

    it('pages through the banks of a template: full pages, the last page, a page beyond the end', async () => {
      const first = await call('GET', `/question-banks?templateId=${templateId}&limit=2`);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ page: 1, limit: 2, total: 5, totalPages: 3 });
      expect(first.body.items.map((b: Json) => b.name)).toEqual(['Paging bank 5', 'Paging bank 4']);
      const last = await call('GET', `/question-banks?templateId=${templateId}&limit=2&page=3`);
      expect(last.body.items.map((b: Json) => b.name)).toEqual(['Paging bank 1']);
      expect(last.body).toMatchObject({ page: 3, total: 5, totalPages: 3 });
      const beyond = await call('GET', `/question-banks?templateId=${templateId}&limit=2&page=9`);
      expect(beyond.status).toBe(200);
      expect(beyond.body).toEqual({ items: [], page: 9, limit: 2, total: 5, totalPages: 3 });
    });

    it('caps the limit at 100', async () => {
      const response = await call('GET', '/question-banks?limit=500');
      expect(response.status).toBe(200);
      expect(response.body.limit).toBe(100);
    });

    it.each([
      ['page=0', /page must be 1 or more/],
      ['limit=0', /limit must be 1 or more/],
      ['page=-3', /page must be 1 or more/],
      ['page=abc', /page must be an integer/],
      ['limit=2.5', /limit must be an integer/],
      ['templateId=nope', /templateId must be a template id/],
      ['surprise=1', /property surprise should not exist/],
    ])('rejects ?%s with a 400 that says why', async (query, message) => {
      const response = await call('GET', `/question-banks?${query}`);
      expect(response.status).toBe(400);
      expect(messages(response.body)).toMatch(message);
    });

    it('lists an empty bank as an empty page with totalPages 0', async () => {
      const bank = await createBank({ name: 'Empty bank' });
      expect(bank.itemCount).toBe(0);
      const response = await call('GET', `/question-banks/${bank.id}/items`);
      expect(response.body).toEqual({ items: [], page: 1, limit: 20, total: 0, totalPages: 0 });
    });

    it('finds banks by words of their name or description, with LIKE wildcards taken literally', async () => {
      await createBank({ name: 'Disaster recovery drills', description: 'failover questions' });
      const byName = await call('GET', '/question-banks?search=RECOVERY');
      expect(byName.body.items.map((b: Json) => b.name)).toEqual(['Disaster recovery drills']);
      const byDescription = await call('GET', '/question-banks?search=failover');
      expect(byDescription.body.total).toBe(1);
      const wildcard = await call('GET', '/question-banks?search=%25');
      expect(wildcard.body.total).toBe(0);
    });
  });

  describe('by template', () => {
    it('returns only the banks made from that template (findByTemplateId)', async () => {
      const a = await createTemplate('Template A');
      const b = await createTemplate('Template B', 'scenario');
      await createBank({ name: 'From A 1', templateId: a.id });
      await createBank({ name: 'From B', templateId: b.id });
      await createBank({ name: 'From A 2', templateId: a.id });
      const response = await call('GET', `/question-banks/by-template/${a.id}?limit=1&page=2`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ total: 2, totalPages: 2, page: 2, limit: 1 });
      expect(response.body.items.map((bank: Json) => bank.name)).toEqual(['From A 1']);
      const all = await call('GET', `/question-banks/by-template/${a.id}`);
      expect(all.body.items.every((bank: Json) => bank.templateId === a.id)).toBe(true);
    });

    it('answers 404 for an unknown template and 400 for an id that is not a UUID', async () => {
      expect((await call('GET', `/question-banks/by-template/${UNKNOWN}`)).status).toBe(404);
      const bad = await call('GET', '/question-banks/by-template/not-a-uuid');
      expect(bad.status).toBe(400);
      expect(messages(bad.body)).toMatch(/uuid is expected/);
    });
  });

  describe('unknown ids and invalid bodies', () => {
    it.each([
      ['GET', `/question-banks/${UNKNOWN}`, undefined],
      ['PATCH', `/question-banks/${UNKNOWN}`, { name: 'x' }],
      ['DELETE', `/question-banks/${UNKNOWN}`, undefined],
      ['GET', `/question-banks/${UNKNOWN}/items`, undefined],
      ['POST', `/question-banks/${UNKNOWN}/items`, { question: 'Anything?' }],
      ['GET', `/question-banks/${UNKNOWN}/export`, undefined],
      ['POST', `/question-banks/${UNKNOWN}/import`, { format: 'json', items: [] }],
      ['GET', `/question-templates/${UNKNOWN}`, undefined],
      ['PATCH', `/question-templates/${UNKNOWN}`, { name: 'x' }],
      ['DELETE', `/question-templates/${UNKNOWN}`, undefined],
    ])('%s %s → 404', async (method: string, path: string, body: unknown) => {
      const response = await call(method, path, body);
      expect(response.status).toBe(404);
      expect(messages(response.body)).toMatch(/not found/);
    });

    it('answers 404 for an unknown item of a known bank, and 400 for ids that are not UUIDs', async () => {
      const bank = await createBank({ name: 'Ids' });
      expect((await call('GET', `/question-banks/${bank.id}/items/${UNKNOWN}`)).status).toBe(404);
      expect((await call('DELETE', `/question-banks/${bank.id}/items/${UNKNOWN}`)).status).toBe(404);
      expect((await call('GET', '/question-banks/42')).status).toBe(400);
      expect((await call('GET', `/question-banks/${bank.id}/items/42`)).status).toBe(400);
    });

    it.each([
      ['a bank without a name', '/question-banks', {}, /name is required/],
      [
        'a bank with an unknown field',
        '/question-banks',
        { name: 'x', owner: 'me' },
        /property owner should not exist/,
      ],
      [
        'a bank with a bad templateId',
        '/question-banks',
        { name: 'x', templateId: 'abc' },
        /templateId must be a template id/,
      ],
      [
        'a bank with a template that does not exist',
        '/question-banks',
        { name: 'x', templateId: UNKNOWN },
        /does not exist/,
      ],
      [
        'a template of an unknown kind',
        '/question-templates',
        { name: 'x', kind: 'riddle', promptTemplate: 'p' },
        /kind must be one of definition, scenario/,
      ],
      [
        'a template without a prompt',
        '/question-templates',
        { name: 'x', kind: 'definition' },
        /promptTemplate/,
      ],
    ])('rejects %s with a 400 that says why', async (_label, path, body, message) => {
      const response = await call('POST', path, body);
      expect(response.status).toBe(400);
      expect(messages(response.body)).toMatch(message);
    });
  });

  describe('items', () => {
    let bankId: string;

    beforeAll(async () => {
      bankId = (await createBank({ name: 'Runbook questions' })).id;
    });

    it('adds one item, then a batch, in order, citing documents by id or by external id', async () => {
      const one = await call('POST', `/question-banks/${bankId}/items`, {
        question: 'How do I promote the standby?',
        expectedSources: [{ documentId: documentIds[0], grade: 2 }],
        tags: ['failover'],
        difficulty: 'easy',
      });
      expect(one.status).toBe(201);
      expect(one.body).toMatchObject({
        bankId,
        question: 'How do I promote the standby?',
        inScope: true,
        language: 'en',
        source: 'manual',
        generator: null,
        expectedSources: [{ documentId: documentIds[0], grade: 2 }],
      });
      const batch = await call('POST', `/question-banks/${bankId}/items`, {
        items: [
          {
            question: 'Are Redis evictions enabled?',
            expectedSources: [{ documentId: 'cache' }],
            tags: ['cache'],
          },
          { question: 'What is the capital of France?', inScope: false, tags: ['off-topic'] },
          {
            question: 'When do backups run?',
            expectedSources: [{ documentId: 'runbook' }],
            tags: ['failover'],
          },
        ],
      });
      expect(batch.status).toBe(201);
      expect(batch.body.items).toHaveLength(3);
      expect(batch.body.items[0].expectedSources).toEqual([{ documentId: documentIds[1] }]);
      const listed = await call('GET', `/question-banks/${bankId}/items`);
      expect(listed.body.items.map((i: Json) => i.question)).toEqual([
        'How do I promote the standby?',
        'Are Redis evictions enabled?',
        'What is the capital of France?',
        'When do backups run?',
      ]);
      expect((await call('GET', `/question-banks/${bankId}`)).body.itemCount).toBe(4);
    });

    it('filters items by tag and by inScope', async () => {
      const tagged = await call('GET', `/question-banks/${bankId}/items?tag=failover`);
      expect(tagged.body.items.map((i: Json) => i.question)).toEqual([
        'How do I promote the standby?',
        'When do backups run?',
      ]);
      const outOfScope = await call('GET', `/question-banks/${bankId}/items?inScope=false`);
      expect(outOfScope.body.total).toBe(1);
      expect(outOfScope.body.items[0].question).toBe('What is the capital of France?');
      expect((await call('GET', `/question-banks/${bankId}/items?inScope=maybe`)).status).toBe(400);
    });

    it('cites chunks: the chunk keeps its id and gains its document', async () => {
      const [chunk] = await dataSource.query(
        `SELECT id, document_id FROM chunks WHERE document_id = $1 LIMIT 1`,
        [documentIds[2]],
      );
      const response = await call('POST', `/question-banks/${bankId}/items`, {
        question: 'Who approves production access?',
        expectedSources: [{ chunkId: chunk.id }],
      });
      expect(response.status).toBe(201);
      expect(response.body.expectedSources).toEqual([{ documentId: documentIds[2], chunkId: chunk.id }]);
    });

    it('rejects unknown documents and chunks, and says which batch item is wrong', async () => {
      const unknownDoc = await call('POST', `/question-banks/${bankId}/items`, {
        question: 'Anything?',
        expectedSources: [{ documentId: 'no-such-doc' }],
      });
      expect(unknownDoc.status).toBe(400);
      expect(messages(unknownDoc.body)).toMatch(/unknown document ..no-such-doc/);
      const unknownChunk = await call('POST', `/question-banks/${bankId}/items`, {
        question: 'Anything?',
        expectedSources: [{ chunkId: UNKNOWN }],
      });
      expect(unknownChunk.status).toBe(400);
      expect(messages(unknownChunk.body)).toMatch(/unknown chunk/);
      const batch = await call('POST', `/question-banks/${bankId}/items`, {
        items: [
          { question: 'Fine?' },
          { question: '   ', difficulty: 'brutal' },
          { question: 'x', extra: 1 },
        ],
      });
      expect(batch.status).toBe(400);
      const text = messages(batch.body);
      expect(text).toMatch(/items\[1\]: question must not be empty/);
      expect(text).toMatch(/items\[1\]: difficulty must be one of easy, medium, hard/);
      expect(text).toMatch(/items\[2\]: property extra should not exist/);
      expect(text).not.toMatch(/items\[0\]/);
      const source = await call('POST', `/question-banks/${bankId}/items`, {
        question: 'Anything?',
        expectedSources: [{ grade: 1 }],
      });
      expect(source.status).toBe(400);
      expect(messages(source.body)).toMatch(/needs a documentId or a chunkId/);
      expect((await call('GET', `/question-banks/${bankId}`)).body.itemCount).toBe(5);
    });

    it('changes and deletes an item', async () => {
      const listed = await call('GET', `/question-banks/${bankId}/items?limit=1`);
      const item = listed.body.items[0];
      const patched = await call('PATCH', `/question-banks/${bankId}/items/${item.id}`, {
        question: 'How do I promote the standby replica?',
        tags: ['failover', 'edited'],
        expectedAnswer: 'pg_ctl promote',
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ tags: ['failover', 'edited'], expectedAnswer: 'pg_ctl promote' });
      expect(patched.body.expectedSources).toEqual([{ documentId: documentIds[0], grade: 2 }]);
      const badPatch = await call('PATCH', `/question-banks/${bankId}/items/${item.id}`, {
        expectedSources: [{ documentId: 'nowhere' }],
      });
      expect(badPatch.status).toBe(400);
      expect((await call('DELETE', `/question-banks/${bankId}/items/${item.id}`)).status).toBe(204);
      expect((await call('GET', `/question-banks/${bankId}/items/${item.id}`)).status).toBe(404);
    });
  });

  describe('cascades', () => {
    it('deleting a bank deletes its items', async () => {
      const bank = await createBank({ name: 'Doomed' });
      await call('POST', `/question-banks/${bank.id}/items`, {
        items: [{ question: 'One?' }, { question: 'Two?' }],
      });
      const count = async () =>
        (
          await dataSource.query(`SELECT count(*)::int AS n FROM question_bank_items WHERE bank_id = $1`, [
            bank.id,
          ])
        )[0].n;
      expect(await count()).toBe(2);
      expect((await call('DELETE', `/question-banks/${bank.id}`)).status).toBe(204);
      expect(await count()).toBe(0);
      expect((await call('GET', `/question-banks/${bank.id}`)).status).toBe(404);
    });

    it('edits a template field by field, and refuses blank or unknown values with a 400 that says why', async () => {
      const template = await createTemplate('Editable');
      const edited = await call('PATCH', `/question-templates/${template.id}`, {
        name: '  Edited name ',
        kind: 'scenario',
        description: 'Now with a description',
      });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({
        name: 'Edited name',
        kind: 'scenario',
        description: 'Now with a description',
        promptTemplate: template.promptTemplate,
      });
      const cleared = await call('PATCH', `/question-templates/${template.id}`, { description: null });
      expect(cleared.body).toMatchObject({ name: 'Edited name', description: null });
      for (const [body, message] of [
        [{ name: '   ' }, /name must not be only spaces/],
        [{ promptTemplate: '' }, /promptTemplate must not be empty/],
        [{ promptTemplate: ' \n ' }, /promptTemplate must not be only spaces/],
        [{ kind: 'riddle' }, /kind must be one of definition/],
        [{ owner: 'me' }, /property owner should not exist/],
      ] as const) {
        const refused = await call('PATCH', `/question-templates/${template.id}`, body);
        expect(refused.status).toBe(400);
        expect(messages(refused.body)).toMatch(message);
      }
      expect((await call('PATCH', '/question-templates/42', { name: 'x' })).status).toBe(400);
      expect((await call('GET', `/question-templates/${template.id}`)).body.name).toBe('Edited name');
    });

    it('deleting a template leaves its banks, with templateId null', async () => {
      const template = await createTemplate('Short-lived');
      const bank = await createBank({ name: 'Survivor', templateId: template.id });
      await call('POST', `/question-banks/${bank.id}/items`, { question: 'Still here?' });
      expect((await call('DELETE', `/question-templates/${template.id}`)).status).toBe(204);
      const after = await call('GET', `/question-banks/${bank.id}`);
      expect(after.status).toBe(200);
      expect(after.body).toMatchObject({ templateId: null, itemCount: 1 });
    });
  });

  describe('import and export', () => {
    let bankId: string;
    let chunkId: string;

    beforeAll(async () => {
      bankId = (await createBank({ name: 'Imported' })).id;
      [{ id: chunkId }] = await dataSource.query(`SELECT id FROM chunks WHERE document_id = $1 LIMIT 1`, [
        documentIds[3],
      ]);
    });

    it('imports JSON rows one by one and reports each rejected row with its reasons', async () => {
      const response = await call('POST', `/question-banks/${bankId}/import`, {
        format: 'json',
        items: [
          { question: 'Why was failover slow?', expectedSources: [{ chunkId }], difficulty: 'hard' },
          { question: 'Who holds the queues?', expectedSources: [{ documentId: 'cache', grade: 1 }] },
          { question: 'Where is the moon?', expectedSources: [{ documentId: 'moon-base' }] },
          { question: '' },
          'not an object',
        ],
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ format: 'json', dryRun: false, rows: 5, accepted: 2 });
      expect(response.body.itemIds).toHaveLength(2);
      expect(response.body.rejected).toEqual([
        {
          row: 3,
          reasons: [
            'unknown document "moon-base" (no document of the bank\'s collection has that id or external id)',
          ],
        },
        { row: 4, reasons: ['question must not be empty'] },
        { row: 5, reasons: ['an item must be an object'] },
      ]);
      const items = await call('GET', `/question-banks/${bankId}/items`);
      expect(items.body.items.map((i: Json) => i.source)).toEqual(['imported', 'imported']);
    });

    it('imports CSV with quoted fields, grades and lists, rejecting bad rows', async () => {
      const csv = [
        'question,expected_documents,expected_chunks,in_scope,tags,difficulty,expected_answer',
        `"Where does WAL archiving, for PITR, run?",runbook=2,,true,backups;wal,medium,"seven ""days"""`,
        `Who approves access?,,${chunkId},yes,,,`,
        'Is this in scope?,,,perhaps,,,',
        'Which city?,atlantis,,false,,,',
        'Off topic question,,,no,off-topic,,',
      ].join('\r\n');
      const response = await call('POST', `/question-banks/${bankId}/import`, { format: 'csv', csv });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ rows: 5, accepted: 3 });
      expect(response.body.rejected).toEqual([
        { row: 3, reasons: ['in_scope must be true or false, found "perhaps"'] },
        {
          row: 4,
          reasons: [
            'unknown document "atlantis" (no document of the bank\'s collection has that id or external id)',
          ],
        },
      ]);
      const [first] = (await call('GET', `/question-banks/${bankId}/items?tag=wal`)).body.items;
      expect(first).toMatchObject({
        question: 'Where does WAL archiving, for PITR, run?',
        expectedAnswer: 'seven "days"',
        expectedSources: [{ documentId: documentIds[0], grade: 2 }],
        tags: ['backups', 'wal'],
        difficulty: 'medium',
      });
    });

    it('imports BEIR queries and qrels: unknown documents and queries rejected, unjudged queries skipped', async () => {
      const queries = [
        JSON.stringify({ _id: 'q1', text: 'promote the standby replica' }),
        JSON.stringify({ _id: 'q2', text: 'redis evictions' }),
        JSON.stringify({ _id: 'q3', text: 'a query nobody judged' }),
        '{not json',
        JSON.stringify({ _id: 4, text: 'judged against a missing document' }),
      ].join('\n');
      const qrels = [
        'query-id\tcorpus-id\tscore',
        'q1\trunbook\t1',
        'q2\tcache\t2',
        '4\tghost\t1',
        'q9\tcache\t1',
      ].join('\n');
      const dry = await call('POST', `/question-banks/${bankId}/import`, {
        format: 'beir',
        queries,
        qrels,
        dryRun: true,
      });
      expect(dry.status).toBe(200);
      expect(dry.body).toMatchObject({ dryRun: true, accepted: 2, itemIds: [] });
      expect((await call('GET', `/question-banks/${bankId}`)).body.itemCount).toBe(5);

      const response = await call('POST', `/question-banks/${bankId}/import`, {
        format: 'beir',
        queries,
        qrels,
      });
      expect(response.body).toMatchObject({
        format: 'beir',
        rows: 5,
        accepted: 2,
        skipped: { count: 1, reason: 'queries without a judgment in the qrels' },
      });
      expect(response.body.rejected).toEqual([
        { row: 4, reasons: [expect.stringMatching(/^queries line 4: malformed JSON/)] },
        {
          row: 5,
          id: '4',
          reasons: [
            'unknown document "ghost" (no document of the bank\'s collection has that id or external id)',
          ],
        },
        { row: 5, id: 'q9', reasons: ['qrels line 5: query "q9" is not in queries'] },
      ]);
      const again = await call('POST', `/question-banks/${bankId}/import`, {
        format: 'beir',
        queries,
        qrels,
      });
      expect(again.body).toMatchObject({ accepted: 2, added: 0, unchanged: 2 });
      expect(again.body.itemIds).toEqual(response.body.itemIds);
      const imported = await call('GET', `/question-banks/${bankId}/items/${response.body.itemIds[1]}`);
      expect(imported.body).toMatchObject({
        question: 'redis evictions',
        expectedSources: [{ documentId: documentIds[1], grade: 2 }],
        metadata: { beirQueryId: 'q2' },
      });
    });

    it('rejects an import whose files cannot be read with a 400', async () => {
      const missing = await call('POST', `/question-banks/${bankId}/import`, { format: 'beir', queries: '' });
      expect(missing.status).toBe(400);
      expect(messages(missing.body)).toMatch(/qrels \(the qrels TSV text\) is required/);
      const badQrels = await call('POST', `/question-banks/${bankId}/import`, {
        format: 'beir',
        queries: '',
        qrels: 'q1 runbook 1',
      });
      expect(badQrels.status).toBe(400);
      expect(messages(badQrels.body)).toMatch(/qrels line 1: expected 3 tab-separated columns/);
      const badCsv = await call('POST', `/question-banks/${bankId}/import`, {
        format: 'csv',
        csv: 'question,owner\nx,y',
      });
      expect(badCsv.status).toBe(400);
      expect(messages(badCsv.body)).toMatch(/unknown CSV column\(s\) owner/);
      const badFormat = await call('POST', `/question-banks/${bankId}/import`, { format: 'xml' });
      expect(messages(badFormat.body)).toMatch(/format must be one of beir, csv, json/);
    });

    it('exports CSV and JSON that import back into another bank unchanged', async () => {
      const original = (await call('GET', `/question-banks/${bankId}/items?limit=100`)).body.items;
      const csv = await call('GET', `/question-banks/${bankId}/export?format=csv`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(csv.headers.get('content-disposition')).toBe('attachment; filename="imported.csv"');
      expect(csv.text.split('\r\n')[0]).toBe(
        'id,question,expected_answer,in_scope,expected_documents,expected_chunks,language,tags,difficulty,source,generator',
      );
      const json = await call('GET', `/question-banks/${bankId}/export`);
      expect(json.headers.get('content-type')).toMatch(/^application\/json/);
      expect(json.body.items).toHaveLength(original.length);

      const shape = (items: Json[]) =>
        items.map((i) => ({
          question: i.question,
          expectedAnswer: i.expectedAnswer,
          inScope: i.inScope,
          expectedSources: i.expectedSources,
          tags: i.tags,
          difficulty: i.difficulty,
          language: i.language,
        }));
      for (const [format, payload] of [
        ['csv', { csv: csv.text }],
        ['json', { items: json.body.items }],
      ] as const) {
        const copy = await createBank({ name: `Copy via ${format}` });
        const report = await call('POST', `/question-banks/${copy.id}/import`, { format, ...payload });
        expect(report.body).toMatchObject({ accepted: original.length, rejected: [] });
        const copied = (await call('GET', `/question-banks/${copy.id}/items?limit=100`)).body.items;
        expect(shape(copied)).toEqual(shape(original));
      }
      expect((await call('GET', `/question-banks/${bankId}/export?format=xml`)).status).toBe(400);
    });

    it('re-importing an export adds nothing: rows match by id or by question and report unchanged, updated, added', async () => {
      const before = (await call('GET', `/question-banks/${bankId}`)).body.itemCount;
      const json = await call('GET', `/question-banks/${bankId}/export`);
      const again = await call('POST', `/question-banks/${bankId}/import`, {
        format: 'json',
        items: json.body.items,
      });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({
        accepted: before,
        added: 0,
        updated: 0,
        unchanged: before,
        rejected: [],
      });
      expect(again.body.itemIds).toEqual(json.body.items.map((i: Json) => i.id));
      const csv = await call('GET', `/question-banks/${bankId}/export?format=csv`);
      const csvAgain = await call('POST', `/question-banks/${bankId}/import`, {
        format: 'csv',
        csv: csv.text,
      });
      expect(csvAgain.body).toMatchObject({ added: 0, updated: 0, unchanged: before, rejected: [] });
      expect((await call('GET', `/question-banks/${bankId}`)).body.itemCount).toBe(before);

      const [first, second] = json.body.items as Json[];
      const mixed = await call('POST', `/question-banks/${bankId}/import`, {
        format: 'json',
        items: [
          { ...first, difficulty: 'easy', tags: ['edited'] },
          { question: `  ${second.question.toUpperCase()}  `, expectedSources: second.expectedSources },
          { question: 'A question the bank does not have yet?' },
          { question: 'a question the BANK does not have yet?' },
        ],
      });
      expect(mixed.status).toBe(200);
      expect(mixed.body).toMatchObject({ rows: 4, accepted: 3, added: 1, updated: 1, unchanged: 1 });
      expect(mixed.body.rejected).toEqual([{ row: 4, reasons: ['repeats the question of row 3'] }]);
      expect(mixed.body.itemIds.slice(0, 2)).toEqual([first.id, second.id]);
      const edited = await call('GET', `/question-banks/${bankId}/items/${first.id}`);
      expect(edited.body).toMatchObject({ question: first.question, difficulty: 'easy', tags: ['edited'] });
      const untouched = await call('GET', `/question-banks/${bankId}/items/${second.id}`);
      expect(untouched.body).toMatchObject({ question: second.question, tags: second.tags });
      expect((await call('GET', `/question-banks/${bankId}`)).body.itemCount).toBe(before + 1);

      const dry = await call('POST', `/question-banks/${bankId}/import`, {
        format: 'json',
        items: [{ ...first, difficulty: 'hard' }, { question: 'Only checked, never written?' }],
        dryRun: true,
      });
      expect(dry.body).toMatchObject({ dryRun: true, added: 1, updated: 1, unchanged: 0, itemIds: [] });
      expect((await call('GET', `/question-banks/${bankId}/items/${first.id}`)).body.difficulty).toBe('easy');
      expect((await call('GET', `/question-banks/${bankId}`)).body.itemCount).toBe(before + 1);
    });
  });

  describe('generation, offline (the template generator, through the queue)', () => {
    let chunks: { id: string; document_id: string }[];

    const waitForJob = async (statusUrl: string): Promise<Json> => {
      const until = Date.now() + 30_000;
      for (;;) {
        const status = await call('GET', statusUrl);
        expect(status.status).toBe(200);
        if (status.body.state === 'completed' || status.body.state === 'failed') return status.body;
        if (Date.now() > until) throw new Error(`generation job still ${status.body.state}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    beforeAll(async () => {
      chunks = await dataSource.query(`SELECT id, document_id FROM chunks`);
    });

    it('writes one labelled item per sampled passage, each citing the chunk it was drawn from', async () => {
      const template = (
        await call('POST', '/question-templates', {
          name: 'Definitions',
          kind: 'definition',
          promptTemplate: 'What does {{heading}} define? {{passage}}',
        })
      ).body;
      const bank = (await call('POST', '/question-banks', { name: 'Generated', templateId: template.id }))
        .body;
      const queued = await call('POST', `/question-banks/${bank.id}/generate`, {
        templateId: template.id,
        documentIds,
        count: 4,
      });
      expect(queued.status).toBe(202);
      expect(queued.body).toMatchObject({
        generator: 'template',
        statusUrl: `/question-banks/${bank.id}/generate/${queued.body.jobId}`,
      });
      const job = await waitForJob(queued.body.statusUrl);
      expect(job.state).toBe('completed');
      expect(job.result).toMatchObject({ generator: 'template', requested: 4, created: 4, warnings: [] });

      const items = (await call('GET', `/question-banks/${bank.id}/items`)).body.items;
      expect(items).toHaveLength(4);
      const chunkDocument = new Map(chunks.map((c) => [c.id, c.document_id]));
      for (const item of items) {
        expect(item).toMatchObject({
          source: 'generated',
          generator: 'template',
          inScope: true,
          language: 'en',
        });
        expect(item.tags).toEqual(['generated', 'definition']);
        expect(item.metadata).toMatchObject({ templateId: template.id, promptVersion: 'template-v1' });
        expect(['about', 'cloze']).toContain(item.metadata.style);
        expect(item.question).toMatch(
          item.metadata.style === 'about' ? /^What does .+ say about .+\?$/ : /_____/,
        );
        const [source] = item.expectedSources;
        expect(item.expectedSources).toHaveLength(1);
        expect(job.result.sampledChunkIds).toContain(source.chunkId);
        expect(source.documentId).toBe(chunkDocument.get(source.chunkId));
      }
      // Four documents, four items: every document contributed one passage.
      expect(new Set(items.map((i: Json) => i.expectedSources[0].documentId)).size).toBe(4);

      // Asking again draws the passages not cited yet first, and never writes a question the bank has.
      const cited = new Set(items.map((i: Json) => i.expectedSources[0].chunkId));
      const again = await call('POST', `/question-banks/${bank.id}/generate`, {
        templateId: template.id,
        documentIds,
        count: chunks.length,
      });
      const second = await waitForJob(again.body.statusUrl);
      // A failed job says why (a stress run saw one finish without a result).
      expect({ state: second.state, failedReason: second.failedReason }).toEqual({
        state: 'completed',
        failedReason: null,
      });
      const fresh = chunks.length - cited.size;
      expect(fresh).toBeGreaterThan(0);
      expect(second.result.sampledChunkIds.slice(0, fresh).every((id: string) => !cited.has(id))).toBe(true);
      const all = (await call('GET', `/question-banks/${bank.id}/items?limit=100`)).body.items;
      expect(all.length).toBe(4 + second.result.created);
      expect(new Set(all.map((i: Json) => i.question.toLowerCase())).size).toBe(all.length);
    });

    it('rejects what it cannot do offline, unknown documents and bad counts, with reasons', async () => {
      const outOfScope = (
        await call('POST', '/question-templates', {
          name: 'Off topic',
          kind: 'out-of-scope',
          promptTemplate: 'p',
        })
      ).body;
      const definition = (
        await call('POST', '/question-templates', { name: 'Def', kind: 'definition', promptTemplate: 'p' })
      ).body;
      const bank = (await call('POST', '/question-banks', { name: 'Rejections' })).body;
      const generate = (body: unknown) => call('POST', `/question-banks/${bank.id}/generate`, body);
      const cases: [unknown, number, RegExp][] = [
        [{ templateId: outOfScope.id, documentIds, count: 2 }, 400, /need an LLM/],
        [
          { templateId: definition.id, documentIds: ['00000000-0000-4000-8000-000000000000'], count: 2 },
          400,
          /unknown document/,
        ],
        [
          { templateId: '00000000-0000-4000-8000-000000000000', documentIds, count: 2 },
          400,
          /does not exist/,
        ],
        [{ templateId: definition.id, documentIds, count: 0 }, 400, /count must be 1 or more/],
        [
          { templateId: definition.id, documentIds: [], count: 1 },
          400,
          /documentIds must name at least one document/,
        ],
        [
          { templateId: definition.id, documentIds: ['x'], count: 1 },
          400,
          /documentIds must be document ids/,
        ],
      ];
      for (const [body, status, message] of cases) {
        const response = await generate(body);
        expect(response.status).toBe(status);
        expect(JSON.stringify(response.body.message)).toMatch(message);
      }
      const unknownBank = await call(
        'POST',
        '/question-banks/00000000-0000-4000-8000-000000000000/generate',
        {
          templateId: definition.id,
          documentIds,
          count: 1,
        },
      );
      expect(unknownBank.status).toBe(404);
      expect((await call('GET', `/question-banks/${bank.id}/generate/999999`)).status).toBe(404);
    });
  });
});

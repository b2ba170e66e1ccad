import { DataSource } from 'typeorm';
import type { Json } from './helpers/http';
import { contractCaller } from './helpers/contract-call';
import { neverSent, newLedger } from './helpers/contract-shape';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';

/**
 * Every answer of the routes declared through the shared contract is checked against the response
 * schema its OpenAPI operation names: no field that the schema lacks, and no declared field that no
 * answer ever holds.
 */
describe('answers match their contract schemas, both ways (embedded PGlite)', () => {
  let server: TestApp;
  let document: Json;
  let documentIds: string[];
  let chunkId: string;
  let call: ReturnType<typeof contractCaller>;
  const ledger = newLedger();

  beforeAll(async () => {
    server = await startTestApp(testEnv());
    const dataSource = server.app.get(DataSource);
    documentIds = await seedDocuments(dataSource, null, RUNBOOK_CORPUS);
    await dataSource.query(`UPDATE documents SET external_id = 'runbook' WHERE id = $1`, [documentIds[0]]);
    [{ id: chunkId }] = await dataSource.query(`SELECT id FROM chunks WHERE document_id = $1 LIMIT 1`, [
      documentIds[0],
    ]);
    document = await (await fetch(`${server.baseUrl}/api/docs-json`)).json();
    call = contractCaller(server.baseUrl, document, ledger);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
  });

  it('question banks, items, imports, generation and templates', async () => {
    const template = await call('POST', '/question-templates', {
      name: 'Definitions',
      kind: 'definition',
      description: 'What terms mean',
      promptTemplate: 'Ask what {{heading}} says: {{passage}}',
    });
    await call('GET', '/question-templates');
    await call('GET', `/question-templates/${template.id}`);
    await call('PATCH', `/question-templates/${template.id}`, { name: 'Definitions, renamed' });

    const bank = await call('POST', '/question-banks', {
      name: 'Runbook',
      description: 'Questions the runbook answers',
      templateId: template.id,
      tags: ['runbook'],
    });
    await call('GET', '/question-banks?search=runbook');
    await call('GET', `/question-banks/by-template/${template.id}`);
    await call('GET', `/question-banks/${bank.id}`);
    await call('PATCH', `/question-banks/${bank.id}`, { tags: ['runbook', 'ops'] });

    const one = await call('POST', `/question-banks/${bank.id}/items`, {
      question: 'How do I promote the standby?',
      expectedAnswer: 'pg_ctl promote',
      expectedSources: [{ documentId: 'runbook', chunkId, grade: 2 }],
      tags: ['failover'],
      difficulty: 'easy',
    });
    await call('POST', `/question-banks/${bank.id}/items`, {
      items: [
        { question: 'What is the weather?', inScope: false },
        { question: 'Which port?', expectedSources: [{ documentId: 'runbook', chunkId, grade: 1 }] },
      ],
    });
    await call('GET', `/question-banks/${bank.id}/items?inScope=true`);
    await call('GET', `/question-banks/${bank.id}/items/${one.id}`);
    await call('PATCH', `/question-banks/${bank.id}/items/${one.id}`, { difficulty: 'hard' });

    await call('POST', `/question-banks/${bank.id}/import`, {
      format: 'beir',
      queries:
        '{"_id": "q1", "text": "Where is the runbook?"}\n{"_id": "q2", "text": ""}\n{"_id": "q3", "text": "Unjudged?"}',
      qrels: 'query-id\tcorpus-id\tscore\nq1\trunbook\t1\nq2\trunbook\t1\n',
    });
    const queued = await call('POST', `/question-banks/${bank.id}/generate`, {
      templateId: template.id,
      documentIds: [documentIds[0]],
      count: 1,
    });
    let job: Json = null;
    for (let attempt = 0; attempt < 240; attempt++) {
      job = await call('GET', queued.statusUrl);
      if (job.state === 'completed' || job.state === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(job.state).toBe('completed');

    expect(ledger.undeclared).toEqual([]);
    expect(neverSent(ledger)).toEqual([]);
  }, 180_000);

  it('the identity and the API keys', async () => {
    const before = new Set(ledger.declared);
    const [{ id: collectionId }] = await server.app
      .get(DataSource)
      .query(`SELECT default_collection_id() AS id`);
    const created = await call('POST', '/auth/keys', {
      name: 'Alice laptop',
      role: 'user',
      grants: [{ collectionId, access: 'read' }],
    });
    await call('PUT', `/auth/keys/${created.id}/grants`, { grants: [{ collectionId, access: 'write' }] });
    await call('GET', '/auth/keys');
    const user = await call('GET', '/auth/me', undefined, { 'x-api-key': created.key });
    expect(user.grants).toEqual([{ collectionId, access: 'write' }]);
    await call('GET', '/auth/me');
    await call('DELETE', `/auth/keys/${created.id}`);

    expect(ledger.undeclared).toEqual([]);
    expect(neverSent(ledger).filter((path) => !before.has(path))).toEqual([]);
  });
});

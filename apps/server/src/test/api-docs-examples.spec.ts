import { DataSource } from 'typeorm';
import type { Json } from './helpers/http';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';

type Schema = Record<string, Json>;

/**
 * The body /api/docs' "Try it out" starts from, built the way Swagger UI builds it: the first of the
 * media type's `examples`, else its `example`, else a sample of the schema (a property's example,
 * default or first enum value; "string", 0 or the minimum, true; one item per array).
 */
function defaultBody(document: Json, media: Json): unknown {
  if (media.examples) return (Object.values(media.examples)[0] as Json).value;
  if (media.example !== undefined) return media.example;
  return sample(document, media.schema);
}

function sample(document: Json, schema: Schema | undefined): unknown {
  if (!schema) return undefined;
  if (schema.$ref)
    return sample(document, document.components.schemas[String(schema.$ref).split('/').pop()!]);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part: Schema) => sample(document, part)));
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  if (schema.type === 'object' || schema.properties) {
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([name, property]) => [
        name,
        sample(document, property as Schema),
      ]),
    );
  }
  if (schema.type === 'array') return [sample(document, schema.items)];
  if (schema.type === 'string') {
    return schema.format === 'uuid' ? '3fa85f64-5717-4562-b3fc-2c963f66afa6' : 'string';
  }
  if (schema.type === 'number' || schema.type === 'integer') return schema.minimum ?? 0;
  if (schema.type === 'boolean') return true;
  return {};
}

describe('the OpenAPI examples are valid requests (embedded PGlite)', () => {
  let server: TestApp;
  let document: Json;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestApp(testEnv());
    const dataSource = server.app.get(DataSource);
    await seedDocuments(dataSource, null, RUNBOOK_CORPUS);
    document = await (await fetch(`${server.baseUrl}/api/docs-json`)).json();
    const post = async (path: string, body: unknown): Promise<Json> =>
      (
        await fetch(`${server.baseUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json();
    ids.bank = (await post('/question-banks', { name: 'Examples' })).id;
    ids.template = (
      await post('/question-templates', { name: 'T', kind: 'definition', promptTemplate: 'p' })
    ).id;
    ids.item = (await post(`/question-banks/${ids.bank}/items`, { question: 'Is this an example?' })).id;
    // Enough in-scope questions with expected sources for a reranker fit to be accepted.
    const [{ id: documentId }] = await dataSource.query(`SELECT id FROM documents LIMIT 1`);
    await post(`/question-banks/${ids.bank}/items`, {
      items: Array.from({ length: 10 }, (_, i) => ({
        question: `How do I fail over, example ${i + 1}?`,
        expectedSources: [{ documentId }],
      })),
    });
    const chat = await fetch(`${server.baseUrl}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'How do I fail over?' }),
    });
    await chat.text();
    [{ id: ids.conversation }] = await dataSource.query(`SELECT id FROM conversations LIMIT 1`);
    [{ id: ids.answer }] = await dataSource.query(`SELECT id FROM messages WHERE role = 'assistant' LIMIT 1`);
    ids.collection = (await post('/collections', { name: 'Examples' })).id;
    ids.source = (
      await post('/sources', {
        name: 'Examples',
        config: { kind: 'git', url: 'https://git.example.com/r.git' },
      })
    ).id;
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
  });

  /** Every JSON body the docs describe, with the ids this test made for its path. */
  const routes = (): [string, string, string][] => [
    ['post', '/rag/search', '/rag/search'],
    ['post', '/chat', '/chat'],
    ['post', '/v1/chat/completions', '/v1/chat/completions'],
    ['post', '/auth/keys', '/auth/keys'],
    ['patch', '/conversations/{id}', `/conversations/${ids.conversation}`],
    ['post', '/messages/{id}/feedback', `/messages/${ids.answer}/feedback`],
    ['post', '/question-banks', '/question-banks'],
    ['patch', '/question-banks/{id}', `/question-banks/${ids.bank}`],
    ['post', '/question-banks/{id}/items', `/question-banks/${ids.bank}/items`],
    ['patch', '/question-banks/{id}/items/{itemId}', `/question-banks/${ids.bank}/items/${ids.item}`],
    ['post', '/question-banks/{id}/import', `/question-banks/${ids.bank}/import`],
    ['post', '/question-templates', '/question-templates'],
    ['patch', '/question-templates/{id}', `/question-templates/${ids.template}`],
    ['post', '/question-banks/{id}/evaluate', `/question-banks/${ids.bank}/evaluate`],
    ['post', '/question-banks/{id}/ablation', `/question-banks/${ids.bank}/ablation`],
    ['post', '/question-banks/{id}/rerankers', `/question-banks/${ids.bank}/rerankers`],
    ['post', '/documents/text', '/documents/text'],
    ['post', '/collections', '/collections'],
    ['patch', '/collections/{id}', `/collections/${ids.collection}`],
    ['post', '/sources', '/sources'],
    ['patch', '/sources/{id}', `/sources/${ids.source}`],
  ];

  it('answers each default example with a success, not a 400', async () => {
    const outcomes: { route: string; status: number; message?: unknown }[] = [];
    for (const [method, template, path] of routes()) {
      const media = document.paths[template]?.[method]?.requestBody?.content?.['application/json'];
      expect({ route: `${method} ${template}`, documented: Boolean(media) }).toEqual({
        route: `${method} ${template}`,
        documented: true,
      });
      const response = await fetch(`${server.baseUrl}${path}`, {
        method: method.toUpperCase(),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(defaultBody(document, media)),
      });
      const text = await response.text();
      outcomes.push({
        route: `${method.toUpperCase()} ${template}`,
        status: response.status < 300 ? 200 : response.status,
        ...(response.status >= 300 ? { message: text.slice(0, 300) } : {}),
      });
    }
    expect(outcomes).toEqual(
      routes().map(([method, template]) => ({ route: `${method.toUpperCase()} ${template}`, status: 200 })),
    );
  }, 120_000);

  it('lists every JSON body route of the docs here, or says why not', () => {
    const covered = new Set(routes().map(([method, template]) => `${method} ${template}`));
    const needsRealIds = new Set([
      // The id of a not-found answer, and a template with documents to sample: no example can know them.
      'post /chat/general',
      'post /question-banks/{id}/generate',
      // The collection a document moves into: an example cannot know one.
      'post /documents/{id}/move',
      // A key's grants name collections of this server: an example cannot know one.
      'put /auth/keys/{id}/grants',
      // Ratings of this server's answers, taken to one of its banks: an example cannot know them.
      'post /feedback/to-bank',
    ]);
    const documented = Object.entries(document.paths as Record<string, Json>).flatMap(([path, operations]) =>
      Object.entries(operations as Record<string, Json>)
        .filter(([, operation]) => operation.requestBody?.content?.['application/json'])
        .map(([method]) => `${method} ${path}`),
    );
    expect(documented.filter((route) => !covered.has(route) && !needsRealIds.has(route))).toEqual([]);
  });
});

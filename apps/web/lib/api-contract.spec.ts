/**
 * The web app's API client checked against the server's OpenAPI document (a committed snapshot:
 * openapi/lumina-api.json). Every client method is called with a recording fetch; each request's
 * method and path must be an operation of the document, its query names declared parameters, and
 * its JSON body keys (one level into nested DTOs) properties of the declared request schema.
 *
 * Regenerate the snapshot from a running server after an API change:
 *   curl -s http://127.0.0.1:<port>/api/docs-json > apps/web/openapi/lumina-api.json && npx prettier --write apps/web/openapi
 * (the browser tests also compare it with the server they start).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { resolveSettings } from '@lumina/shared';
import { createApiClient, type ApiClient } from './api-client';
import { API_OPERATIONS, type ApiOperationName } from './api-operations';
import { matchOperations, operationKey } from './openapi-paths';

interface OpenApiParameter {
  name: string;
  in: string;
}

interface OpenApiSchema {
  $ref?: string;
  type?: string;
  properties?: Record<string, OpenApiSchema>;
  items?: OpenApiSchema;
  allOf?: OpenApiSchema[];
  anyOf?: OpenApiSchema[];
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: OpenApiSchema }> };
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, OpenApiSchema> };
}

const SNAPSHOT = path.join(__dirname, '..', 'openapi', 'lumina-api.json');
const document = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as OpenApiDocument;

/** Operations the web app is ready for that the server does not offer yet (the UI degrades). */
const AWAITING_SERVER: ApiOperationName[] = [];

const ID = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const COLLECTION = '00000000-0000-4000-8000-000000000003';

interface Recorded {
  method: string;
  url: URL;
  body: BodyInit | null | undefined;
}

function resolve(schema: OpenApiSchema | undefined): OpenApiSchema | undefined {
  if (!schema?.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return resolve(document.components?.schemas?.[name]);
}

function propertiesOf(schema: OpenApiSchema | undefined): Record<string, OpenApiSchema> | null {
  const resolved = resolve(schema);
  if (!resolved) return null;
  // allOf: all parts' properties; anyOf (one item or a batch): any option's.
  const parts = resolved.allOf ?? resolved.anyOf;
  if (parts) return Object.assign({}, ...parts.map((part) => propertiesOf(part) ?? {}));
  return resolved.properties ?? null;
}

/** The document's operation for a concrete request, with the path template it matched. */
function findOperation(
  method: string,
  pathname: string,
): { template: string; operation: OpenApiOperation } | null {
  const candidates = Object.entries(document.paths)
    .filter(([template]) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname))
    // A literal segment beats a parameter (/eval-runs/compare before /eval-runs/{id}).
    .sort(([a], [b]) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  for (const [template, item] of candidates) {
    const operation = item[method.toLowerCase()];
    if (operation) return { template, operation };
  }
  return null;
}

function recordingClient(): { client: ApiClient; calls: Recorded[] } {
  const calls: Recorded[] = [];
  const client = createApiClient({
    baseUrl: 'http://api.test',
    fetch: async (input, init) => {
      calls.push({ method: init.method ?? 'GET', url: new URL(input), body: init.body });
      return new Response('{}', { status: 500, headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, calls };
}

/** Every client method, called once with realistic arguments. */
const CALLS: Record<ApiOperationName, (client: ApiClient) => Promise<unknown> | AsyncGenerator<unknown>> = {
  health: (c) => c.getHealth(),
  me: (c) => c.getIdentity(),
  listKeys: (c) => c.listKeys({ page: 2, limit: 20 }),
  createKey: (c) =>
    c.createKey({
      name: 'Alice laptop',
      role: 'user',
      grants: [{ collectionId: COLLECTION, access: 'read' }],
    }),
  revokeKey: (c) => c.revokeKey(ID),
  setKeyGrants: (c) => c.setKeyGrants(ID, { grants: [{ collectionId: COLLECTION, access: 'write' }] }),
  search: (c) => c.search('q', resolveSettings({ enableHyDE: true }), { collectionIds: [COLLECTION] }),
  chat: (c) =>
    c.streamChat({
      message: 'q',
      settings: resolveSettings(),
      conversationId: ID,
      replaceMessageId: OTHER,
      collectionIds: [COLLECTION],
    }),
  chatGeneral: (c) => c.streamGeneralAnswer({ conversationId: ID, messageId: OTHER }),
  listConversations: (c) => c.listConversations({ page: 2, limit: 10, q: 'standby' }),
  getConversation: (c) => c.getConversation(ID),
  renameConversation: (c) => c.renameConversation(ID, 'New name'),
  deleteConversation: (c) => c.deleteConversation(ID),
  exportConversation: (c) => c.exportConversation(ID),
  getTrace: (c) => c.getTrace(ID),
  rateAnswer: (c) => c.rateAnswer(ID, { rating: 'down', reasons: ['wrong'], note: 'It is pg_ctl promote' }),
  withdrawRating: (c) => c.withdrawRating(ID),
  listFeedback: (c) => c.listFeedback({ page: 2, limit: 10, rating: 'down', unreviewed: true }),
  feedbackDaily: (c) => c.feedbackDaily({ days: 30, collectionId: COLLECTION }),
  feedbackToBank: (c) =>
    c.feedbackToBank({ bankId: ID, entries: [{ feedbackId: ID, inScope: true, expectedSources: [] }] }),
  markFeedbackReviewed: (c) => c.markFeedbackReviewed(ID),
  listSources: (c) => c.listSources({ page: 1, limit: 20, collectionId: COLLECTION }),
  createSource: (c) =>
    c.createSource({
      name: 'Handbook',
      collectionId: COLLECTION,
      scheduleMinutes: 60,
      config: { kind: 'git', url: 'https://example.com/handbook.git', include: ['docs/**/*.md'] },
    }),
  updateSource: (c) => c.updateSource(ID, { scheduleMinutes: null }),
  deleteSource: (c) => c.deleteSource(ID, true),
  syncSource: (c) => c.syncSource(ID),
  listSourceRuns: (c) => c.listSourceRuns(ID, { page: 1, limit: 10 }),
  listDocuments: (c) =>
    c.listDocuments({ page: 1, limit: 20, search: 'hand', status: 'indexed', collectionId: COLLECTION }),
  getDocument: (c) => c.getDocument(ID),
  listChunks: (c) => c.listChunks(ID, { page: 1, limit: 20 }),
  uploadDocuments: (c) => c.uploadDocuments([new File(['# A'], 'a.md')], { collectionId: COLLECTION }),
  createTextDocument: (c) => c.createTextDocument({ title: 'T', text: 'x', collectionId: COLLECTION }),
  deleteDocument: (c) => c.deleteDocument(ID),
  documentEvents: (c) => c.documentEvents(ID),
  moveDocument: (c) => c.moveDocument(ID, COLLECTION),
  listCollections: (c) => c.listCollections({ page: 1, limit: 100, search: 'runbooks' }),
  createCollection: (c) => c.createCollection({ name: 'Runbooks', description: 'd' }),
  getCollection: (c) => c.getCollection(COLLECTION),
  updateCollection: (c) => c.updateCollection(COLLECTION, { name: 'Runbooks', description: 'd' }),
  deleteCollection: (c) => c.deleteCollection(COLLECTION),
  listQuestionBanks: (c) => c.listQuestionBanks({ page: 1, limit: 10, search: 'x', templateId: ID }),
  createQuestionBank: (c) =>
    c.createQuestionBank({ name: 'B', description: 'd', templateId: ID, tags: ['t'] }),
  getQuestionBank: (c) => c.getQuestionBank(ID),
  updateQuestionBank: (c) => c.updateQuestionBank(ID, { name: 'B', description: 'd', templateId: null }),
  deleteQuestionBank: (c) => c.deleteQuestionBank(ID),
  listQuestionBankItems: (c) => c.listQuestionBankItems(ID, { page: 1, limit: 10, inScope: true, tag: 't' }),
  createQuestionBankItems: (c) =>
    c.createQuestionBankItems(ID, [
      {
        question: 'q',
        expectedAnswer: null,
        inScope: true,
        expectedSources: [{ documentId: ID }],
        tags: [],
        language: 'en',
        difficulty: null,
      },
    ]),
  updateQuestionBankItem: (c) => c.updateQuestionBankItem(ID, OTHER, { question: 'q', inScope: false }),
  deleteQuestionBankItem: (c) => c.deleteQuestionBankItem(ID, OTHER),
  importQuestionBankItems: (c) => c.importQuestionBankItems(ID, { format: 'json', items: [], dryRun: true }),
  exportQuestionBankItems: (c) => c.exportQuestionBankItems(ID, 'csv'),
  generateQuestionBankItems: (c) =>
    c.generateQuestionBankItems(ID, { templateId: OTHER, documentIds: [ID], count: 3 }),
  getGenerationJob: (c) => c.getGenerationJob(ID, 'job-1'),
  evaluateQuestionBank: (c) => c.evaluateQuestionBank(ID, resolveSettings()),
  listQuestionTemplates: (c) => c.listQuestionTemplates({ page: 1, limit: 100 }),
  createQuestionTemplate: (c) =>
    c.createQuestionTemplate({ name: 'T', kind: 'definition', promptTemplate: 'p', description: 'd' }),
  updateQuestionTemplate: (c) => c.updateQuestionTemplate(ID, { name: 'T2', description: null }),
  deleteQuestionTemplate: (c) => c.deleteQuestionTemplate(ID),
  listEvalRuns: (c) => c.listEvalRuns({ page: 1, limit: 20, bankId: ID }),
  getEvalRun: (c) => c.getEvalRun(ID),
  compareEvalRuns: (c) => c.compareEvalRuns(ID, OTHER),
  startAblation: (c) => c.startAblation(ID, resolveSettings()),
  listBankAblations: (c) => c.listBankAblations(ID, { page: 1, limit: 5 }),
  getAblation: (c) => c.getAblation(ID),
  listEnhancementWarnings: (c) => c.listEnhancementWarnings(),
  fitReranker: (c) => c.fitReranker(ID, { learner: 'lambdamart', activate: false }),
  listRerankers: (c) => c.listRerankers({ page: 1, limit: 20, bankId: ID }),
  getActiveReranker: (c) => c.getActiveReranker(),
  getReranker: (c) => c.getReranker(ID),
  getRerankerModel: (c) => c.downloadRerankerModel(ID, 'bank-v1'),
  activateReranker: (c) => c.activateReranker(ID),
  deactivateReranker: (c) => c.deactivateReranker(ID),
  deleteReranker: (c) => c.deleteReranker(ID),
};

async function run(call: Promise<unknown> | AsyncGenerator<unknown>): Promise<void> {
  try {
    if (Symbol.asyncIterator in call) for await (const _ of call as AsyncGenerator<unknown>);
    else await call;
  } catch {
    // the recording fetch answers 500: only the request matters here
  }
}

describe('api client against the OpenAPI snapshot', () => {
  it('knows which of its operations the server has, and which it still waits for', () => {
    const { missing } = matchOperations(document);
    expect(missing).toEqual(AWAITING_SERVER);
  });

  it('keeps the operation table in step with the client (one call per operation)', () => {
    expect(Object.keys(CALLS).sort()).toEqual(Object.keys(API_OPERATIONS).sort());
  });

  const available = (Object.keys(CALLS) as ApiOperationName[]).filter(
    (name) => !AWAITING_SERVER.includes(name),
  );

  it.each(available)('%s: method, path, query and body match the document', async (name) => {
    const { client, calls } = recordingClient();
    await run(CALLS[name](client));
    expect(calls).toHaveLength(1);
    const [call] = calls;
    const expected = API_OPERATIONS[name];
    expect(operationKey(call.method, call.url.pathname.replace(/[0-9a-f-]{36}|job-1/g, '{x}'))).toBe(
      operationKey(expected.method, expected.path),
    );

    const found = findOperation(call.method, call.url.pathname);
    expect(found).not.toBeNull();
    const { operation } = found!;

    const declared = new Set((operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
    for (const key of call.url.searchParams.keys()) expect(declared).toContain(key);

    if (typeof call.body === 'string') {
      const schema = operation.requestBody?.content['application/json']?.schema;
      const properties = propertiesOf(schema);
      expect(properties).not.toBeNull();
      const body = JSON.parse(call.body) as Record<string, unknown>;
      for (const [key, value] of Object.entries(body)) {
        expect(Object.keys(properties!)).toContain(key);
        const nested = propertiesOf(properties![key]);
        if (nested && value && typeof value === 'object' && !Array.isArray(value)) {
          for (const inner of Object.keys(value)) expect(Object.keys(nested)).toContain(inner);
        }
      }
    } else if (call.body instanceof FormData) {
      const schema = operation.requestBody?.content['multipart/form-data']?.schema;
      const properties = propertiesOf(schema);
      for (const key of call.body.keys()) expect(Object.keys(properties ?? {})).toContain(key);
    } else {
      expect(call.body).toBeUndefined();
    }
  });
});

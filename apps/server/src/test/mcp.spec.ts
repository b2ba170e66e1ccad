import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_QUERY_CHARS, NOT_FOUND_SENTENCE } from '@lumina/shared';
import { DataSource } from 'typeorm';
import { EMBEDDER } from '../providers/providers.module';
import { buildServer, REPO_ROOT } from './fixtures/ingestion/worker-process';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';
import type { Json } from './helpers/http';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { eventOf, postSse, tokensOf } from './helpers/sse-client';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { TEST_BACKEND } from './helpers/test-backend';
import { testEnv } from './helpers/test-env';

const run = promisify(execFile);
const ADMIN_KEY = 'mcp-suite-admin-key-0123456789abcdef';
const PROMOTE = 'How do I promote the standby replica?';
const OUT_OF_SCOPE = 'Which primary color do painters mix first?';
/** Passages of the long document: more than a resource read gives. */
const LONG_PASSAGES = 2_050;

/** Words only collection B holds. */
const B_DOCUMENTS = [
  {
    title: 'Payroll ledger',
    text: 'The payroll replica is encrypted with the zanzibar passphrase before it leaves the vault.',
  },
  {
    title: 'Salary bands',
    text: 'Every salary band of the quillfeather team is kept beside the payroll replica.',
  },
];

/**
 * The MCP client configurations the README gives (its MCP section's JSON blocks): the stdio command and
 * the Streamable HTTP form. The suite runs them as written, with the path, address and key swapped.
 */
function readmeConfigs(): { stdio: Json; http: Json } {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.split('## Use it from your editor or assistant (MCP)\n')[1].split('\n## ')[0];
  const [stdio, http] = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map(
    (match) => JSON.parse(match[1]).mcpServers.lumina,
  );
  return { stdio, http };
}

const README_URL = 'http://127.0.0.1:3000';
const README_KEY = '<key>';
const README_ENTRY = '/path/to/lumina/dist/apps/server/apps/server/src/mcp.js';

function resourceText(read: ReadResourceResult): string {
  const [content] = read.contents;
  return 'text' in content ? content.text : '';
}

function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * Lumina's MCP server driven by the MCP SDK's own client, over Streamable HTTP (POST /mcp, in the API's
 * process) and over stdio (the compiled command, calling the REST API): the tools on a really indexed
 * corpus, answered offline by the extractive answerer, their errors, and a user key's collection scope.
 */
describe(`MCP server over Streamable HTTP and stdio (keys mode, ${TEST_BACKEND})`, () => {
  let server: TestApp;
  let dataSource: DataSource;
  let userKey: string;
  let defaultCollection: string;
  let runbookIds: string[];
  const B = { id: '', documents: [] as string[], chunks: [] as string[], long: '' };
  const clients: Client[] = [];
  let admin: Client;
  let user: Client;

  const rest = async (path: string, key = userKey, init: RequestInit = {}) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      ...init,
      headers: { 'x-api-key': key, 'content-type': 'application/json', ...init.headers },
    });
    return { status: response.status, body: (await response.json()) as Json };
  };

  /** A client over Streamable HTTP, configured as the README says. */
  const httpClient = async (key: string) => {
    const { http } = readmeConfigs();
    const headers = Object.fromEntries(
      Object.entries(http.headers as Record<string, string>).map(([name, value]) => [
        name,
        value.replace(README_KEY, key),
      ]),
    );
    const client = new Client({ name: 'lumina-mcp-suite', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(String(http.url).replace(README_URL, server.baseUrl)), {
        requestInit: { headers },
      }),
    );
    clients.push(client);
    return client;
  };

  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  /** A tool's structured result, after checking it did not fail. */
  const structured = async (client: Client, name: string, args: Record<string, unknown>) => {
    const result = await call(client, name, args);
    expect({ name, isError: result.isError ?? false, text: result.isError ? textOf(result) : '' }).toEqual({
      name,
      isError: false,
      text: '',
    });
    return { result: result.structuredContent as Json, text: textOf(result) };
  };
  /** A tool's failure text, after checking it failed. */
  const failure = async (client: Client, name: string, args: Record<string, unknown>) => {
    const result = await call(client, name, args);
    expect({ name, args, isError: result.isError }).toEqual({ name, args, isError: true });
    expect(result.structuredContent).toBeUndefined();
    return textOf(result);
  };

  beforeAll(async () => {
    server = await startTestApp(testEnv({ ADMIN_API_KEY: ADMIN_KEY }));
    dataSource = server.app.get(DataSource);
    runbookIds = await seedDocuments(dataSource, server.app.get(EMBEDDER), RUNBOOK_CORPUS);
    [{ collection_id: defaultCollection }] = await dataSource.query(
      `SELECT collection_id FROM documents WHERE id = $1`,
      [runbookIds[0]],
    );
    const created = await rest('/collections', ADMIN_KEY, {
      method: 'POST',
      body: JSON.stringify({ name: 'Bravo Vault', slug: 'bravo-vault' }),
    });
    expect(created.status).toBe(201);
    B.id = created.body.id;
    B.documents = await seedDocuments(dataSource, server.app.get(EMBEDDER), B_DOCUMENTS);
    const sections = Array.from(
      { length: LONG_PASSAGES },
      (_, i) => `# Entry ${i + 1}\n\nLedger line ${i + 1}.`,
    );
    [B.long] = await seedDocuments(
      dataSource,
      null,
      [{ title: 'Ledger archive', format: 'markdown', text: sections.join('\n\n') }],
      { unit: 'chunk', maxChars: 60, overlapChars: 0 },
    );
    const moved = [...B.documents, B.long];
    await dataSource.query(`UPDATE documents SET collection_id = $2 WHERE id = ANY($1::uuid[])`, [
      moved,
      B.id,
    ]);
    await dataSource.query(`UPDATE chunks SET collection_id = $2 WHERE document_id = ANY($1::uuid[])`, [
      moved,
      B.id,
    ]);
    const chunks: { id: string }[] = await dataSource.query(
      `SELECT id FROM chunks WHERE document_id = ANY($1::uuid[]) ORDER BY ordinal`,
      [B.documents],
    );
    B.chunks = chunks.map((chunk) => chunk.id);
    const key = await rest('/auth/keys', ADMIN_KEY, {
      method: 'POST',
      body: JSON.stringify({
        name: 'Reader of the default collection',
        role: 'user',
        grants: [{ collectionId: defaultCollection, access: 'read' }],
      }),
    });
    expect(key.status).toBe(201);
    userKey = key.body.key;
    admin = await httpClient(ADMIN_KEY);
    user = await httpClient(userKey);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await server?.close();
  });

  describe('over Streamable HTTP (POST /mcp)', () => {
    it('lists the four tools with their input and output schemas, and the document resource template', async () => {
      const { tools } = await user.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'ask',
        'get_passage',
        'list_documents',
        'search',
      ]);
      for (const tool of tools) {
        expect(tool.description?.length).toBeGreaterThan(80);
        expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
        expect(tool.outputSchema).toMatchObject({ type: 'object' });
      }
      const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
      expect(byName.search.inputSchema.required).toEqual(['query']);
      expect(byName.search.inputSchema.properties).toMatchObject({
        query: { type: 'string', minLength: 1, maxLength: MAX_QUERY_CHARS },
        settings: { properties: { ranker: { enum: ['dense', 'bm25', 'hybrid'] }, topK: { maximum: 50 } } },
      });
      expect(byName.ask.inputSchema.required).toEqual(['question']);
      expect(byName.get_passage.inputSchema.properties).toMatchObject({
        neighbours: { minimum: 0, maximum: 5, default: 1 },
      });
      expect(byName.list_documents.inputSchema.properties).toMatchObject({ limit: { maximum: 100 } });
      expect(byName.search.annotations).toMatchObject({ readOnlyHint: true });
      const { resourceTemplates } = await user.listResourceTemplates();
      expect(resourceTemplates).toEqual([
        expect.objectContaining({ name: 'document', uriTemplate: 'lumina://documents/{id}' }),
      ]);
    });

    it('search: the runbook passage first, with heading path, score and a link that opens it — the ranking of POST /rag/search', async () => {
      const { result, text } = await structured(user, 'search', { query: PROMOTE });
      const [top] = result.passages;
      expect(top).toMatchObject({
        rank: 1,
        documentId: runbookIds[0],
        title: 'Database runbook',
        headingPath: ['Failover'],
        link: `${server.baseUrl}/documents/${runbookIds[0]}/chunks?chunk=${top.chunkId}`,
      });
      expect(top.text).toContain('Promote the standby replica with pg_ctl promote.');
      expect(result.collectionIds).toEqual([defaultCollection]);
      const api = await rest('/rag/search', userKey, {
        method: 'POST',
        body: JSON.stringify({ query: PROMOTE }),
      });
      expect(result.passages.map((p: Json) => [p.chunkId, p.score])).toEqual(
        api.body.results.map((hit: Json) => [hit.chunkId, hit.score]),
      );
      expect(text).toContain(`[1] Database runbook › Failover (score `);
      expect(text).toContain(`chunkId: ${top.chunkId}\nlink: ${top.link}`);
      const opened = await fetch(top.link, { headers: { authorization: `Bearer ${userKey}` } });
      expect(opened.status).toBe(200);
      expect(((await opened.json()) as Json).items.map((chunk: Json) => chunk.id)).toContain(top.chunkId);

      // settings, documentIds and collectionIds reach the search.
      const narrowed = await structured(user, 'search', {
        query: 'replica',
        settings: { ranker: 'hybrid', topK: 1 },
        documentIds: [runbookIds[3]],
        collectionIds: [defaultCollection],
      });
      expect(narrowed.result.passages.map((p: Json) => p.documentId)).toEqual([runbookIds[3]]);
    });

    it("ask: the chat's answer word for word, with its numbered citations, links and trace", async () => {
      const { result, text } = await structured(user, 'ask', { question: PROMOTE });
      const chat = await postSse(
        `${server.baseUrl}/chat`,
        { message: PROMOTE },
        { headers: { 'x-api-key': userKey } },
      );
      expect(result.answer).toBe(tokensOf(chat.events));
      expect(result.answer).toContain('Promote the standby replica with pg_ctl promote.');
      expect(result).toMatchObject({ notFound: false, generator: 'extractive' });
      const citations = eventOf(chat.events, 'citations').citations;
      expect(result.citations).toEqual(
        citations.map((c: Json) => ({
          marker: c.marker,
          chunkId: c.chunkId,
          documentId: c.documentId,
          title: c.title,
          headingPath: c.headingPath,
          link: `${server.baseUrl}/documents/${c.documentId}/chunks?chunk=${c.chunkId}`,
        })),
      );
      expect(result.citations[0]).toMatchObject({
        marker: 1,
        title: 'Database runbook',
        headingPath: ['Failover'],
      });
      expect(
        text.startsWith(
          `${result.answer}\n\nSources:\n[1] Database runbook › Failover: ${result.citations[0].link}`,
        ),
      ).toBe(true);
      expect(result.trace).toBe(`${server.baseUrl}/messages/${result.messageId}/trace`);
      const trace = await rest(`/messages/${result.messageId}/trace`);
      expect(trace).toMatchObject({ status: 200, body: { generator: 'extractive', query: PROMOTE } });

      // A follow-up in the same conversation.
      const followUp = await structured(user, 'ask', {
        question: 'When do backups run?',
        conversationId: result.conversationId,
      });
      expect(followUp.result.conversationId).toBe(result.conversationId);
      expect(followUp.result.answer).toContain('Nightly base backups run at 02:00 UTC.');
    });

    it('ask: the not-found sentence, and no citation, for a question the documents do not answer', async () => {
      const { result, text } = await structured(user, 'ask', { question: OUT_OF_SCOPE });
      expect(result).toMatchObject({
        answer: NOT_FOUND_SENTENCE,
        notFound: true,
        generator: 'none',
        citations: [],
      });
      expect(text.startsWith(`${NOT_FOUND_SENTENCE}\n\nconversationId: `)).toBe(true);
    });

    it('get_passage: the passage, its document and its neighbours, as GET /chunks/:id', async () => {
      const [first, second] = await dataSource.query(
        `SELECT id FROM chunks WHERE document_id = $1 ORDER BY ordinal`,
        [runbookIds[0]],
      );
      const { result, text } = await structured(user, 'get_passage', { chunkId: second.id });
      const api = await rest(`/chunks/${second.id}`);
      expect(result).toEqual({
        ...api.body,
        link: `${server.baseUrl}/documents/${runbookIds[0]}/chunks?chunk=${second.id}`,
      });
      expect(result.document).toMatchObject({ id: runbookIds[0], title: 'Database runbook' });
      expect(result.before.map((chunk: Json) => chunk.id)).toEqual([first.id]);
      expect(text).toContain('Database runbook › Backups (passage 2, ');
      expect(text).toContain('Nightly base backups run at 02:00 UTC.');
      expect(text).toContain(`Before:\n\n--- passage 1: Database runbook › Failover (chunkId ${first.id})`);
      const alone = await structured(user, 'get_passage', { chunkId: second.id, neighbours: 0 });
      expect([alone.result.before, alone.result.after]).toEqual([[], []]);
    });

    it('list_documents: pages of the documents the key reads, filtered by title words', async () => {
      const { result, text } = await structured(user, 'list_documents', { limit: 3 });
      expect(result).toMatchObject({ page: 1, limit: 3, total: RUNBOOK_CORPUS.length, totalPages: 2 });
      expect(Object.keys(result.items[0]).sort()).toEqual([
        'chunkCount',
        'collectionId',
        'id',
        'status',
        'title',
      ]);
      expect(result.items[0]).toMatchObject({ status: 'indexed', collectionId: defaultCollection });
      expect(text.split('\n')[0]).toBe(`Documents 1–3 of ${RUNBOOK_CORPUS.length} (page 1 of 2):`);
      const found = await structured(user, 'list_documents', { search: 'runbook' });
      expect(found.result.items.map((d: Json) => d.id)).toEqual([runbookIds[0]]);
      const all = await structured(admin, 'list_documents', { collectionId: B.id, limit: 100 });
      expect(new Set(all.result.items.map((d: Json) => d.id))).toEqual(new Set([...B.documents, B.long]));
    });

    it('the document resource: listed, read in reading order; a long document is cut at 2,000 passages and says so', async () => {
      const { resources } = await user.listResources();
      expect(resources.map((resource) => resource.uri).sort()).toEqual(
        runbookIds.map((id) => `lumina://documents/${id}`).sort(),
      );
      const read = await user.readResource({ uri: `lumina://documents/${runbookIds[0]}` });
      const text = resourceText(read);
      expect(read.contents[0]).toMatchObject({
        uri: `lumina://documents/${runbookIds[0]}`,
        mimeType: 'text/plain',
      });
      expect(text.indexOf('## Failover')).toBeGreaterThan(0);
      expect(text.indexOf('Promote the standby replica')).toBeGreaterThan(text.indexOf('## Failover'));
      expect(text.indexOf('## Backups')).toBeGreaterThan(text.indexOf('Promote the standby replica'));
      expect(text).not.toContain('Cut:');

      const long = resourceText(await admin.readResource({ uri: `lumina://documents/${B.long}` }));
      expect(long).toContain('## Entry 2000\n\nLedger line 2000.');
      expect(long).not.toContain('Ledger line 2001.');
      expect(long).toContain(`[Cut: the first 2,000 of ${LONG_PASSAGES.toLocaleString('en-US')} passages.`);
      await expect(user.readResource({ uri: 'lumina://documents/not-an-id' })).rejects.toThrow(
        /id must be a document id \(a UUID\)/,
      );
    });

    it('refuses bad arguments with the reason, as tool errors: the schema before the tool, the API after', async () => {
      const cases: [string, Record<string, unknown>, RegExp][] = [
        [
          'search',
          { query: '' },
          /^MCP error -32602: Input validation error: Invalid arguments for tool search: query must not be empty/,
        ],
        ['search', { query: 'x'.repeat(MAX_QUERY_CHARS + 1) }, /query must be shorter than 10000 characters/],
        ['search', { query: 'replica', settings: { topK: 99 } }, /topK must be at most 50/],
        ['search', { query: 'replica', collectionIds: ['nope'] }, /collectionIds must be collection ids/],
        ['search', { query: 'replica', colour: 'blue' }, /Unrecognized key/i],
        ['search', { query: '   ' }, /^Invalid request \(400\): query must contain words, not only spaces$/],
        ['ask', { question: '' }, /question must not be empty/],
        ['get_passage', { chunkId: 'abc' }, /chunkId must be a chunk id \(a UUID\)/],
        ['get_passage', { chunkId: B.chunks[0], neighbours: 6 }, /neighbours must be at most 5/],
        ['list_documents', { limit: 101 }, /limit must be at most 100/],
        [
          'get_passage',
          { chunkId: '00000000-0000-4000-8000-000000000000' },
          /^Not found \(404\): No chunk has the id 00000000-0000-4000-8000-000000000000\.$/,
        ],
      ];
      for (const [name, args, reason] of cases) {
        expect({ name, args, text: await failure(user, name, args) }).toEqual({
          name,
          args,
          text: expect.stringMatching(reason),
        });
      }
    });

    it('answers 401 without a key before any MCP, and 405 to GET and DELETE', async () => {
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      };
      const keyless = await fetch(`${server.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(initialize),
      });
      expect(keyless.status).toBe(401);
      expect(await keyless.json()).toMatchObject({ statusCode: 401, code: 'unauthorized' });
      const client = new Client({ name: 'keyless', version: '1.0.0' });
      await expect(
        client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`))),
      ).rejects.toThrow(/401/);
      for (const method of ['GET', 'DELETE']) {
        const answer = await fetch(`${server.baseUrl}/mcp`, {
          method,
          headers: { authorization: `Bearer ${userKey}`, accept: 'text/event-stream' },
        });
        expect({ method, status: answer.status, allow: answer.headers.get('allow') }).toEqual({
          method,
          status: 405,
          allow: 'POST',
        });
        expect(await answer.json()).toMatchObject({
          statusCode: 405,
          message: expect.stringMatching(/stateless/),
        });
      }
    });

    it("a user key granted the default collection reaches nothing of collection B's", async () => {
      const search = await structured(user, 'search', { query: 'payroll replica zanzibar passphrase' });
      expect(search.result.collectionIds).toEqual([defaultCollection]);
      for (const passage of search.result.passages) expect(runbookIds).toContain(passage.documentId);
      expect(JSON.stringify(search.result.passages)).not.toMatch(/payroll|zanzibar/i);
      // The admin key finds B's passage with the same words.
      const seen = await structured(admin, 'search', { query: 'payroll replica zanzibar passphrase' });
      expect(seen.result.passages[0].documentId).toBe(B.documents[0]);

      const notFound = /^Not found \(404\): /;
      expect(await failure(user, 'search', { query: 'replica', collectionIds: [B.id] })).toMatch(notFound);
      expect(await failure(user, 'get_passage', { chunkId: B.chunks[0] })).toBe(
        `Not found (404): No chunk has the id ${B.chunks[0]}.`,
      );
      expect(await failure(user, 'list_documents', { collectionId: B.id })).toMatch(notFound);
      expect(
        await failure(user, 'ask', { question: 'What protects the payroll replica?', collectionIds: [B.id] }),
      ).toMatch(notFound);
      const listed = await structured(user, 'list_documents', { limit: 100 });
      expect(listed.result.items.map((d: Json) => d.id).sort()).toEqual([...runbookIds].sort());
      const answer = await structured(user, 'ask', { question: 'What protects the payroll replica?' });
      expect(JSON.stringify(answer.result)).not.toMatch(/zanzibar|Payroll ledger/i);
      const read = user.readResource({ uri: `lumina://documents/${B.documents[0]}` });
      await expect(read).rejects.toBeInstanceOf(McpError);
      await expect(user.readResource({ uri: `lumina://documents/${B.documents[0]}` })).rejects.toThrow(
        /Not found \(404\): No document has the id/,
      );
    });
  });

  describe('over stdio (the compiled command, calling the REST API)', () => {
    let entry: string;
    let stdio: Client;
    let stderr = '';

    beforeAll(async () => {
      entry = join(dirname(await buildServer(join(REPO_ROOT, 'tmp/ingestion-worker-build'))), 'mcp.js');
      const { stdio: config } = readmeConfigs();
      expect(config.command).toBe('node');
      expect(config.args).toEqual([README_ENTRY, '--url', README_URL, '--key', README_KEY]);
      const swap: Record<string, string> = {
        [README_ENTRY]: entry,
        [README_URL]: server.baseUrl,
        [README_KEY]: userKey,
      };
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: (config.args as string[]).map((arg) => swap[arg] ?? arg),
        cwd: REPO_ROOT,
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      stdio = new Client({ name: 'lumina-mcp-suite-stdio', version: '1.0.0' });
      await stdio.connect(transport);
      clients.push(stdio);
    }, SETUP_TIMEOUT_MS);

    it('serves the same tools, with the same answers as POST /mcp, through the REST API with the key', async () => {
      const { tools } = await stdio.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'ask',
        'get_passage',
        'list_documents',
        'search',
      ]);
      const overStdio = await structured(stdio, 'search', { query: PROMOTE });
      const overHttp = await structured(user, 'search', { query: PROMOTE });
      expect(overStdio).toEqual(overHttp);
      expect(overStdio.result.passages[0]).toMatchObject({
        title: 'Database runbook',
        headingPath: ['Failover'],
      });

      // POST /chat's event stream, read to its end by the command, gives the answer of the API's process.
      const asked = await structured(stdio, 'ask', { question: PROMOTE });
      const askedOverHttp = await structured(user, 'ask', { question: PROMOTE });
      const { conversationId: _c, messageId: _m, trace: _t, ...answer } = asked.result;
      const { conversationId: _c2, messageId: _m2, trace: _t2, ...answerOverHttp } = askedOverHttp.result;
      expect(answer).toEqual(answerOverHttp);
      expect(asked.result.citations[0]).toMatchObject({ marker: 1, title: 'Database runbook' });
      expect(asked.result.trace).toBe(`${server.baseUrl}/messages/${asked.result.messageId}/trace`);
      expect((await structured(stdio, 'ask', { question: OUT_OF_SCOPE })).result.answer).toBe(
        NOT_FOUND_SENTENCE,
      );

      const chunkId = overStdio.result.passages[0].chunkId;
      expect(await structured(stdio, 'get_passage', { chunkId, neighbours: 2 })).toEqual(
        await structured(user, 'get_passage', { chunkId, neighbours: 2 }),
      );
      expect(await structured(stdio, 'list_documents', { limit: 2, page: 2 })).toEqual(
        await structured(user, 'list_documents', { limit: 2, page: 2 }),
      );
      const uri = `lumina://documents/${runbookIds[0]}`;
      expect(await stdio.readResource({ uri })).toEqual(await user.readResource({ uri }));
      expect(await stdio.listResources()).toEqual(await user.listResources());
      expect(stderr).toContain('acting as "Reader of the default collection" (user)');
    });

    it("carries the API's refusals: the key's scope, and invalid arguments", async () => {
      expect(await failure(stdio, 'get_passage', { chunkId: B.chunks[0] })).toBe(
        `Not found (404): No chunk has the id ${B.chunks[0]}.`,
      );
      expect(await failure(stdio, 'search', { query: '   ' })).toBe(
        'Invalid request (400): query must contain words, not only spaces',
      );
      expect(await failure(stdio, 'search', { query: 'replica', collectionIds: [B.id] })).toMatch(
        /^Not found \(404\): /,
      );
      expect(await failure(stdio, 'get_passage', { chunkId: 'abc' })).toMatch(/chunkId must be a chunk id/);
      await expect(stdio.readResource({ uri: `lumina://documents/${B.long}` })).rejects.toThrow(
        /Not found \(404\): No document has the id/,
      );
    });

    it('exits 2 with the reason for a missing or malformed --url, needing none of the server configuration', async () => {
      for (const args of [[], ['--url', 'not a url'], ['--url', 'ftp://127.0.0.1'], ['--colour']]) {
        // An empty environment: no DATABASE_URL, no REDIS_URL, no ADMIN_API_KEY.
        const outcome = await run(process.execPath, [entry, ...args], { env: {} }).then(
          () => ({ code: 0, stdout: '', stderr: '' }),
          (error: { code: number; stdout: string; stderr: string }) => error,
        );
        expect({ args, code: outcome.code, stdout: outcome.stdout }).toEqual({ args, code: 2, stdout: '' });
        expect(outcome.stderr).toMatch(/--url|Unknown option/);
        expect(outcome.stderr).toContain('usage: node dist/apps/server/apps/server/src/mcp.js --url');
      }
    });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { freePort } from '../common/net/free-port';
import { REPO_ROOT } from './fixtures/ingestion/worker-process';
import type { WorkerProcess } from './fixtures/ingestion/worker-process';
import { buildMainEntry, compiledServerEnv, startCompiledServer } from './helpers/compiled-server';
import { readJson } from './helpers/http';
import type { Json } from './helpers/http';

const KEY = 'compiled-clients-admin-key-0123456789';
const QUESTION = 'How do I promote the standby replica?';
const RUNBOOK =
  '# Failover\n\nPromote the standby replica with pg_ctl promote. Then repoint the application connection ' +
  'string to the new primary.\n\n# Backups\n\nNightly base backups run at 02:00 UTC.';
const SETUP_TIMEOUT_MS = 300_000;

/**
 * What the README promises for the tools people already use, against the compiled server that
 * `npm start` runs (its own process, embedded database, in-process workers, the default embedder): a
 * document uploaded over REST and indexed by the worker, then asked through the official `openai`
 * client and the MCP SDK's client, over Streamable HTTP and over the stdio command.
 */
describe('the openai client and MCP clients against the compiled server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lumina-clients-'));
  let server: WorkerProcess | undefined;
  let baseUrl: string;
  let mainEntry: string;
  const clients: Client[] = [];

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: await readJson(response) };
  };
  const structured = async (client: Client, name: string, args: Record<string, unknown>): Promise<Json> => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError ?? false).toBe(false);
    return result.structuredContent as Json;
  };

  beforeAll(async () => {
    mainEntry = await buildMainEntry();
    const started = await startCompiledServer(
      mainEntry,
      compiledServerEnv(await freePort(), dir, { ADMIN_API_KEY: KEY }),
    );
    server = started.server;
    baseUrl = started.baseUrl;
    const uploaded = await api('POST', '/documents/text', {
      title: 'Database runbook',
      text: RUNBOOK,
      format: 'markdown',
    });
    expect(uploaded.status).toBe(202);
    const documentId = uploaded.body.id as string;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const document = await api('GET', `/documents/${documentId}`);
      if (document.body.status === 'indexed') break;
      if (document.body.status === 'failed' || Date.now() > deadline) {
        throw new Error(`the document was not indexed: ${JSON.stringify(document.body)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await server?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the openai client lists the models and gets the same cited answer streamed and not', async () => {
    const openai = new OpenAI({ apiKey: KEY, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
    expect((await openai.models.list()).data.map((model) => model.id)).toEqual(['lumina', 'lumina:default']);
    const completion = await openai.chat.completions.create({
      model: 'lumina',
      messages: [{ role: 'user', content: QUESTION }],
    });
    const content = completion.choices[0].message.content ?? '';
    expect(content).toContain('Promote the standby replica with pg_ctl promote.');
    expect(content).toContain('**Sources**\n\n- [1] Database runbook › Failover');
    const stream = await openai.chat.completions.create({
      model: 'lumina',
      messages: [{ role: 'user', content: QUESTION }],
      stream: true,
    });
    let streamed = '';
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe(content);
  });

  it('an MCP client over Streamable HTTP and one over the stdio command search and ask', async () => {
    const http = new Client({ name: 'lumina-compiled-http', version: '1.0.0' });
    await http.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${KEY}` } },
      }),
    );
    clients.push(http);
    const stdio = new Client({ name: 'lumina-compiled-stdio', version: '1.0.0' });
    await stdio.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(dirname(mainEntry), 'mcp.js'), '--url', baseUrl, '--key', KEY],
        cwd: REPO_ROOT,
        stderr: 'pipe',
      }),
    );
    clients.push(stdio);
    for (const client of [http, stdio]) {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'ask',
        'get_passage',
        'list_documents',
        'search',
      ]);
      const found = await structured(client, 'search', { query: QUESTION });
      expect(found.passages[0]).toMatchObject({
        title: 'Database runbook',
        headingPath: ['Failover'],
      });
      const asked = await structured(client, 'ask', { question: QUESTION });
      expect(asked).toMatchObject({ notFound: false });
      expect(asked.citations[0]).toMatchObject({ marker: 1, title: 'Database runbook' });
    }
  });
});

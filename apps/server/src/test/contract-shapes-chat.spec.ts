import { join } from 'node:path';
import { ScriptedOpenAiServer, completion } from '@lumina/testing-llm';
import type { RecordedRequest } from '@lumina/testing-llm';
import { DataSource } from 'typeorm';
import { EMBEDDER } from '../providers/providers.module';
import type { Json } from './helpers/http';
import { contractCaller, eventSchemaNames } from './helpers/contract-call';
import { neverSent, newLedger, recordShape } from './helpers/contract-shape';
import type { ShapeLedger } from './helpers/contract-shape';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { eventOf, eventOrder, postSse } from './helpers/sse-client';
import type { SseEvent } from './helpers/sse-client';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';
import { SETUP_TIMEOUT_MS } from './helpers/hook-timeouts';

/** The learned reranker the repository ships: its passages carry each feature's contribution. */
const LEARNED_RERANKER = join(__dirname, '../../../../models/ltr-scifact-v3.json');

/**
 * Declared for every adaptive decision, but sent only by bank evaluations, whose runs know the bank's
 * latest ablation (contract-shapes-evaluation.spec sees it there): a search or a chat has no bank.
 */
const SENT_ONLY_BY_BANK_RUNS = ['measuredWorse'];

function recordEvents(ledger: ShapeLedger, document: Json, path: string, events: SseEvent[]): void {
  const names = eventSchemaNames(document, 'POST', path);
  for (const { event, data } of events) {
    const name = names[event];
    if (!name) throw new Error(`${path} sent an event "${event}" its contract does not declare`);
    recordShape(ledger, document.components.schemas, name, data);
  }
}

/**
 * Every answer of search, chat (each SSE event), conversations and traces is checked against the schema
 * its OpenAPI operation names, both ways: no field the schema lacks, and no declared field no answer
 * ever holds. Two servers send between them every field: one offline with the learned reranker (PRF
 * branches, reranker contributions, extractive answers), one with a scripted LLM (the model's variants
 * and HyDE passage, token usage, a failed answer).
 */
describe('search, chat, conversation and trace answers match their contract schemas, both ways (embedded PGlite)', () => {
  const ledger = newLedger();
  let offline: TestApp;
  let withLlm: TestApp;
  let llm: ScriptedOpenAiServer;
  let offlineDocument: Json;
  let llmDocument: Json;

  const isStreamedAnswer = (request: RecordedRequest) =>
    request.path === '/v1/chat/completions' && request.body.stream === true;
  const systemPrompt = (request: RecordedRequest) =>
    String((request.body.messages as Json[] | undefined)?.[0]?.content ?? '');

  async function chat(app: TestApp, document: Json, path: string, body: unknown): Promise<SseEvent[]> {
    const { status, events } = await postSse(`${app.baseUrl}${path}`, body);
    expect(status).toBe(200);
    recordEvents(ledger, document, path, events);
    return events;
  }

  beforeAll(async () => {
    llm = await ScriptedOpenAiServer.start();
    llm.on((request) => {
      if (request.path !== '/v1/chat/completions' || isStreamedAnswer(request)) return null;
      const prompt = systemPrompt(request);
      if (prompt.includes('search queries'))
        return completion(
          '{"queries": ["promote the standby server", "make the replica the primary", "pg_ctl promote"]}',
        );
      if (prompt.includes('Write one passage'))
        return completion(
          'To fail over, promote the standby replica with pg_ctl promote, then repoint the clients and ' +
            'the connection pooler at the new primary and check that replication has caught up before ' +
            'taking writes again on the promoted server.',
        );
      return null;
    });
    [offline, withLlm] = await Promise.all([
      startTestApp(testEnv({ RERANK_MODEL_FILE: LEARNED_RERANKER })),
      startTestApp(
        testEnv({
          LLM_BASE_URL: llm.baseUrl,
          LLM_MODEL: 'scripted-model',
          LLM_TIMEOUT_MS: '2000',
          LLM_MAX_RETRIES: '0',
        }),
      ),
    ]);
    for (const app of [offline, withLlm]) {
      const dataSource = app.app.get(DataSource);
      await seedDocuments(dataSource, app.app.get(EMBEDDER), RUNBOOK_CORPUS);
      // A paged source's passages say which pages they are on.
      await dataSource.query(`UPDATE chunks SET page_start = 2, page_end = 3`);
    }
    [offlineDocument, llmDocument] = await Promise.all(
      [offline, withLlm].map(async (app) => (await fetch(`${app.baseUrl}/api/docs-json`)).json()),
    );
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all([offline?.close(), withLlm?.close()]);
    await llm?.close();
  });

  it('every field of these answers is declared, and every declared field is sent', async () => {
    const callOffline = contractCaller(offline.baseUrl, offlineDocument, ledger);
    const callLlm = contractCaller(withLlm.baseUrl, llmDocument, ledger);
    const question = 'How do I promote the standby replica?';

    // Searches: offline (PRF branches, adaptive HyDE, the learned reranker, a similarity threshold) and
    // with the model's variants and passage.
    const searched = await callOffline('POST', '/rag/search', {
      query: question,
      settings: {
        enableQueryExpansion: true,
        enableHyDE: 'adaptive',
        enableRerank: true,
        ranker: 'hybrid',
        minScore: 0.01,
        topK: 3,
      },
    });
    expect(searched.results[0].rerank.contributions).toBeDefined();
    expect(searched.adaptive).not.toBeNull();
    const llmSearch = await callLlm('POST', '/rag/search', {
      query: question,
      settings: { enableQueryExpansion: true, enableHyDE: true, topK: 3 },
    });
    expect(llmSearch.expansions.source).toBe('llm');
    expect(llmSearch.hyde.source).toBe('llm');

    // An extractive answer offline, through the learned reranker.
    const answered = await chat(offline, offlineDocument, '/chat', {
      message: question,
      settings: { enableRerank: true, enableHyDE: 'adaptive', topK: 3 },
    });
    expect(eventOrder(answered)).toEqual(['retrieval', 'token', 'citations', 'done']);
    const conversationId = eventOf(answered, 'done').conversationId;
    await chat(offline, offlineDocument, '/chat', { conversationId, message: 'And does it need a restart?' });

    // The model's streamed answer (token usage), then one the model fails to give (a stored failure).
    const written = await chat(withLlm, llmDocument, '/chat', {
      message: question,
      settings: { enableQueryExpansion: true, enableHyDE: true, topK: 3 },
    });
    expect(eventOf(written, 'done').usage).not.toBeNull();
    llm.on((request) => (isStreamedAnswer(request) ? { raw: '<html>502 Bad Gateway</html>' } : null));
    const failed = await chat(withLlm, llmDocument, '/chat', { message: question });
    expect(eventOf(failed, 'error')).toMatchObject({ code: 'llm_failed', messageId: expect.any(String) });

    // Conversations (one answer rated, so the conversation shows a rating) and traces.
    await callOffline('POST', `/messages/${eventOf(answered, 'done').messageId}/feedback`, {
      rating: 'down',
      reasons: ['incomplete'],
      note: 'It leaves out repointing the writers',
    });
    await callOffline('GET', '/conversations');
    await callOffline('GET', '/conversations?q=standby');
    const detail = await callOffline('GET', `/conversations/${conversationId}`);
    await callOffline('PATCH', `/conversations/${conversationId}`, { title: 'Failover' });
    // A trace stored before a setting existed answers that setting's default, as the schema asks.
    await offline.app
      .get(DataSource)
      .query(`UPDATE retrieval_traces SET settings = settings - 'expansionCount' WHERE settings IS NOT NULL`);
    for (const message of detail.messages.items.filter((item: Json) => item.hasTrace)) {
      const trace = await callOffline('GET', `/messages/${message.id}/trace`);
      expect(trace.settings.expansionCount).toBe(3);
    }
    await callLlm('GET', `/messages/${eventOf(written, 'done').messageId}/trace`);
    await callLlm('GET', `/conversations/${eventOf(written, 'done').conversationId}`);
    await callLlm('GET', `/conversations/${eventOf(failed, 'error').conversationId}`);

    expect(ledger.undeclared).toEqual([]);
    const missing = neverSent(ledger);
    const bankOnly = missing.filter((path) => SENT_ONLY_BY_BANK_RUNS.includes(path.split('.').pop()!));
    expect(bankOnly.length).toBeGreaterThan(0); // still declared: the exemption has not gone stale
    expect(missing.filter((path) => !bankOnly.includes(path))).toEqual([]);
  }, 300_000);
});

import { LlmListwiseReranker } from '@lumina/rag';
import { DataSource } from 'typeorm';
import { validateEnv } from '../config/env.schema';
import { createChatModel } from '../providers/create-chat-model';
import { createReranker } from '../providers/create-reranker';
import { HttpReranker } from '../providers/http-reranker';
import { OpenAiChatModel } from '../providers/openai-chat-model';
import { CHAT_MODEL, EMBEDDER, RERANKER } from '../providers/providers.module';
import { readJson } from './helpers/http';
import type { Json } from './helpers/http';
import { ScriptedOpenAiServer, completion } from '@lumina/testing-llm';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

describe('which reranker the environment configures', () => {
  const llm = { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'm' };

  it('uses RERANK_BASE_URL first, then the chat model listwise, else none', () => {
    const withEndpoint = validateEnv({
      ...llm,
      RERANK_BASE_URL: 'http://127.0.0.1:9/v1',
      RERANK_MODEL: 'bge',
    });
    expect(createReranker(withEndpoint, createChatModel(withEndpoint))).toBeInstanceOf(HttpReranker);
    const llmOnly = validateEnv(llm);
    const listwise = createReranker(llmOnly, createChatModel(llmOnly));
    expect(listwise).toBeInstanceOf(LlmListwiseReranker);
    expect(listwise?.modelId).toBe('m/listwise-rerank-v1');
    expect(createReranker(validateEnv({}), createChatModel(validateEnv({})))).toBeNull();
  });
});

/** LLM configured, no /v1/rerank endpoint: reranking is listwise through the chat model. */
describe('POST /rag/search reranked listwise by the LLM (scripted OpenAI-compatible server)', () => {
  let llm: ScriptedOpenAiServer;
  let app: TestApp;

  const search = async (body: unknown): Promise<Json> => {
    const response = await fetch(`${app.baseUrl}/rag/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return readJson(response);
  };

  beforeAll(async () => {
    llm = await ScriptedOpenAiServer.start();
    app = await startTestApp(
      testEnv({
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: 'scripted-model',
        LLM_TIMEOUT_MS: '1000',
        LLM_MAX_RETRIES: '0',
      }),
    );
    await seedDocuments(app.app.get(DataSource), app.app.get(EMBEDDER), RUNBOOK_CORPUS);
  });
  beforeEach(() => llm.reset());
  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  it('provides the chat model and the listwise reranker to the app', () => {
    expect(app.app.get(CHAT_MODEL)).toBeInstanceOf(OpenAiChatModel);
    expect(app.app.get(RERANKER)).toBeInstanceOf(LlmListwiseReranker);
  });

  it('lists the numbered candidates with the query and applies the order the model gives', async () => {
    const settings = { topK: 3, candidateK: 3 };
    const plain = await search({ query: 'database failover replica', settings });
    expect(plain.results).toHaveLength(3);
    llm.on(() => completion('Ranking: [3] > [1] > [2]'));
    const reranked = await search({
      query: 'database failover replica',
      settings: { ...settings, enableRerank: true },
    });
    expect(reranked.warnings).toEqual([]);
    const ids = plain.results.map((r: Json) => r.chunkId);
    expect(reranked.results.map((r: Json) => r.chunkId)).toEqual([ids[2], ids[0], ids[1]]);
    const [request] = llm.requestsTo('/v1/chat/completions');
    const prompt = (request.body.messages as { content: string }[])[1].content;
    expect(prompt).toContain('Query: database failover replica');
    plain.results.forEach((r: Json, i: number) =>
      expect(prompt).toContain(`[${i + 1}] ${r.text.replace(/\s+/g, ' ').slice(0, 40)}`),
    );
    expect(llm.requestsTo('/v1/rerank')).toHaveLength(0);
  });

  it('keeps the fused order with a warning when the model names no passage', async () => {
    llm.on(() => completion('These passages are all relevant.'));
    const plain = await search({ query: 'database failover replica', settings: { topK: 3 } });
    const reranked = await search({
      query: 'database failover replica',
      settings: { topK: 3, enableRerank: true },
    });
    expect(reranked.warnings).toEqual([
      expect.stringMatching(/^Reranking failed, the fused order is kept: the model's ranking names none/),
    ]);
    expect(reranked.results.map((r: Json) => r.chunkId)).toEqual(plain.results.map((r: Json) => r.chunkId));
  });
});

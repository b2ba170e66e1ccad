import type { CompletionEvent } from '@lumina/rag';
import { SECRET_ENV_KEYS, validateEnv } from '../config/env.schema';
import { createChatModel } from '../providers/create-chat-model';
import { LlmRequestError } from '../providers/llm-request-error';
import { OpenAiChatModel } from '../providers/openai-chat-model';
import type { OpenAiChatModelOptions } from '../providers/openai-chat-model';
import { ScriptedOpenAiServer, completion } from '@lumina/testing-llm';

/** The ChatModel adapter against a real OpenAI-compatible HTTP server on loopback (real `openai` client). */
describe('OpenAiChatModel (scripted OpenAI-compatible server)', () => {
  let server: ScriptedOpenAiServer;
  const model = (options: Partial<OpenAiChatModelOptions> = {}) =>
    new OpenAiChatModel({
      baseURL: server.baseUrl,
      model: 'test-model',
      timeoutMs: 2000,
      maxRetries: 2,
      baseDelayMs: 40,
      ...options,
    });
  const messages = [
    { role: 'system' as const, content: 'You are terse.' },
    { role: 'user' as const, content: 'Say hi' },
  ];

  beforeAll(async () => {
    server = await ScriptedOpenAiServer.start();
  });
  afterEach(() => server.reset());
  afterAll(async () => {
    await server.close();
  });

  /** The server notices a closed connection on its next turn of the event loop. */
  const eventually = async (check: () => boolean, ms = 1000): Promise<boolean> => {
    const until = Date.now() + ms;
    while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    return check();
  };

  describe('complete', () => {
    it('sends the model, the messages and the options, and returns text, model and usage', async () => {
      server.on((request) =>
        request.path === '/v1/chat/completions' ? completion('hello there', 'served-model') : null,
      );
      const answer = await model().complete({ messages, temperature: 0, maxTokens: 64, json: true });
      expect(answer).toEqual({
        text: 'hello there',
        model: 'served-model',
        usage: { promptTokens: 11, completionTokens: 7 },
      });
      const [request] = server.requestsTo('/v1/chat/completions');
      expect(request.body).toEqual({
        model: 'test-model',
        messages,
        temperature: 0,
        max_tokens: 64,
        response_format: { type: 'json_object' },
      });
    });

    it('leaves out options that were not asked for', async () => {
      await model().complete({ messages });
      expect(server.requestsTo('/v1/chat/completions')[0].body).toEqual({ model: 'test-model', messages });
    });

    it('retries 429 and 5xx with growing backoff, then succeeds', async () => {
      let calls = 0;
      server.on(() => {
        calls += 1;
        if (calls === 1) return { status: 429, json: { error: { message: 'slow down' } } };
        if (calls === 2) return { status: 503, json: { error: { message: 'overloaded' } } };
        return completion('finally');
      });
      const retries: number[] = [];
      const answer = await model({ onRetry: (event) => retries.push(event.status ?? 0) }).complete({
        messages,
      });
      expect(answer.text).toBe('finally');
      const at = server.requests.map((request) => request.at);
      expect(at).toHaveLength(3);
      // Delays are 40 ms then 80 ms, each with at most 25 % jitter off.
      expect(at[1] - at[0]).toBeGreaterThanOrEqual(28);
      expect(at[2] - at[1]).toBeGreaterThanOrEqual(58);
      expect(retries).toEqual([429, 503]);
    });

    it('gives up after LLM_MAX_RETRIES with the status in the error', async () => {
      server.on(() => ({ status: 500, json: { error: { message: 'boom' } } }));
      const error = await model({ maxRetries: 1 })
        .complete({ messages })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmRequestError);
      expect((error as LlmRequestError).status).toBe(500);
      expect((error as Error).message).toMatch(/answered 500/);
      expect(server.requests).toHaveLength(2);
    });

    it("words the error for a warning: the server's message, or just the status", async () => {
      server.on(() => ({ status: 400, json: { error: { message: 'unknown model' } } }));
      await expect(model().complete({ messages })).rejects.toThrow(
        /^the chat endpoint answered 400: unknown model$/,
      );
      server.reset();
      server.on(() => ({ status: 502, raw: '' }));
      await expect(model({ maxRetries: 0 }).complete({ messages })).rejects.toThrow(
        /^the chat endpoint answered 502$/,
      );
    });

    it('does not retry a 400', async () => {
      server.on(() => ({ status: 400, json: { error: { message: 'bad model' } } }));
      await expect(model().complete({ messages })).rejects.toThrow(/answered 400: .*bad model/);
      expect(server.requests).toHaveLength(1);
    });

    // No wall-clock bounds: the reply would come after 10 s, so a rejection (not 'too late') and a
    // connection the server saw closed before it answered show the order of events on any machine.
    it('times out an attempt, aborts the HTTP request and does not retry it', async () => {
      server.on(() => ({ ...completion('too late'), delayMs: 10_000 }));
      // 1 s, not less: at a load average of 25 a request once took longer than 150 ms to reach the server.
      await expect(model({ timeoutMs: 1000 }).complete({ messages })).rejects.toThrow(
        /did not answer within 1000 ms/,
      );
      expect(server.requests).toHaveLength(1);
      expect(await eventually(() => server.aborted.length === 1, 10_000)).toBe(true);
    });

    it("stops at once when the caller's signal aborts, with the caller's reason, and aborts the request", async () => {
      server.on(() => ({ ...completion('too late'), delayMs: 10_000 }));
      const controller = new AbortController();
      const completing = model({ timeoutMs: 30_000 }).complete({ messages, signal: controller.signal });
      // The caller leaves once the request is at the server (an event, not a guess at how long it takes).
      expect(await eventually(() => server.requests.length === 1, 10_000)).toBe(true);
      controller.abort(new Error('the user left'));
      await expect(completing).rejects.toThrow('the user left');
      expect(await eventually(() => server.aborted.length === 1, 10_000)).toBe(true);
    });

    it('does not call the endpoint with an already aborted signal', async () => {
      const controller = new AbortController();
      controller.abort(new Error('never mind'));
      await expect(model().complete({ messages, signal: controller.signal })).rejects.toThrow('never mind');
      expect(server.requests).toHaveLength(0);
    });

    it('aborts the backoff wait too', async () => {
      server.on(() => ({ status: 503, json: {} }));
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('deadline')), 150);
      const started = Date.now();
      await expect(
        model({ baseDelayMs: 60_000, maxDelayMs: 60_000 }).complete({ messages, signal: controller.signal }),
      ).rejects.toThrow('deadline');
      // The point is a time: the abort (at 150 ms) ends a backoff of a minute. 20 s is far above what a
      // loaded machine takes and far below the backoff.
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(server.requests).toHaveLength(1);
    });

    it('reports an unreadable body as such', async () => {
      server.on(() => ({ raw: '{"choices": [ this is not json' }));
      await expect(model().complete({ messages })).rejects.toThrow(/unreadable answer/);
      server.reset();
      server.on(() => ({ json: { unexpected: true } }));
      await expect(model().complete({ messages })).rejects.toThrow(/without any choices/);
    });

    it('retries a refused connection and says it could not reach the endpoint', async () => {
      const closed = await ScriptedOpenAiServer.start();
      const baseURL = closed.baseUrl;
      await closed.close();
      await expect(
        new OpenAiChatModel({
          baseURL,
          model: 'm',
          timeoutMs: 1000,
          maxRetries: 1,
          baseDelayMs: 10,
        }).complete({
          messages,
        }),
      ).rejects.toThrow(/could not reach the chat endpoint/);
    });
  });

  describe('stream', () => {
    const collect = async (events: AsyncIterable<CompletionEvent>): Promise<CompletionEvent[]> => {
      const out: CompletionEvent[] = [];
      for await (const event of events) out.push(event);
      return out;
    };

    it('yields the tokens in order, then the usage, and asks for usage in the request', async () => {
      server.on(() => ({ stream: ['Hel', 'lo', ' world'] }));
      const events = await collect(model().stream({ messages, temperature: 0.2 }));
      expect(events).toEqual([
        { type: 'token', text: 'Hel' },
        { type: 'token', text: 'lo' },
        { type: 'token', text: ' world' },
        { type: 'usage', usage: { promptTokens: 11, completionTokens: 3 } },
      ]);
      expect(server.requests[0].body).toEqual({
        model: 'test-model',
        messages,
        temperature: 0.2,
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(server.aborted).toHaveLength(0);
    });

    it("aborts the upstream HTTP request when the caller's signal aborts mid-stream", async () => {
      server.on(() => ({ stream: ['one ', 'two ', 'three'], stallAfter: 1 }));
      const controller = new AbortController();
      const seen: string[] = [];
      const error = await (async () => {
        for await (const event of model().stream({ messages, signal: controller.signal })) {
          if (event.type === 'token') seen.push(event.text);
          setTimeout(() => controller.abort(new Error('user pressed stop')), 50);
        }
      })().catch((e: unknown) => e);
      expect((error as Error).message).toBe('user pressed stop');
      expect(seen).toEqual(['one ']);
      expect(await eventually(() => server.aborted.length === 1)).toBe(true);
    });

    it('aborts the upstream HTTP request when the consumer stops reading', async () => {
      server.on(() => ({ stream: ['a', 'b', 'c', 'd'], streamDelayMs: 100 }));
      for await (const event of model().stream({ messages })) {
        expect(event).toEqual({ type: 'token', text: 'a' });
        break;
      }
      expect(await eventually(() => server.aborted.length === 1)).toBe(true);
    });

    it('times out a stream that falls silent, and closes the connection', async () => {
      server.on(() => ({ stream: ['first', 'never'], stallAfter: 1 }));
      const seen: string[] = [];
      const error = await (async () => {
        for await (const event of model({ timeoutMs: 200 }).stream({ messages })) {
          if (event.type === 'token') seen.push(event.text);
        }
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmRequestError);
      expect((error as LlmRequestError).timeout).toBe(true);
      expect(seen).toEqual(['first']);
      expect(await eventually(() => server.aborted.length === 1)).toBe(true);
    });

    it('does not count a slow consumer as a silent endpoint', async () => {
      server.on(() => ({ stream: ['x', 'y'] }));
      const seen: string[] = [];
      // The endpoint gets 1 s per gap (under heavy load 100 ms was not enough for the first byte); the
      // consumer takes 2 s over each token.
      for await (const event of model({ timeoutMs: 1000 }).stream({ messages })) {
        if (event.type === 'token') seen.push(event.text);
        await new Promise((r) => setTimeout(r, 2000));
      }
      expect(seen).toEqual(['x', 'y']);
    });

    it('retries opening a stream on 503', async () => {
      let calls = 0;
      server.on(() => (++calls === 1 ? { status: 503, json: {} } : { stream: ['ok'] }));
      const events = await collect(model().stream({ messages }));
      expect(events[0]).toEqual({ type: 'token', text: 'ok' });
      expect(server.requests).toHaveLength(2);
    });
  });

  describe('configuration', () => {
    it('is off (null) without LLM_BASE_URL, and needs LLM_MODEL with it', () => {
      expect(createChatModel(validateEnv({}))).toBeNull();
      expect(() => validateEnv({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1' })).toThrow(
        /LLM_MODEL: is required when LLM_BASE_URL is set/,
      );
      const env = validateEnv({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LLM_MODEL: 'qwen2.5:7b' });
      expect(env.LLM_TIMEOUT_MS).toBe(30000);
      expect(env.LLM_MAX_RETRIES).toBe(2);
      expect(createChatModel(env)?.modelId).toBe('qwen2.5:7b');
    });

    it('treats the API keys as secrets', () => {
      expect(SECRET_ENV_KEYS).toEqual(expect.arrayContaining(['LLM_API_KEY', 'RERANK_API_KEY']));
    });
  });
});

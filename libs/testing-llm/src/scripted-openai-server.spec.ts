import { completion } from './replies';
import { ScriptedOpenAiServer } from './scripted-openai-server';
import { searchBranchScript } from './scripts/search-branch-script';

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The fields of the answers these specs read. */
interface Answer {
  choices: { message: { content: string } }[];
  data: { embedding: number[] }[];
  results: unknown[];
}
const postJson = async (url: string, body: unknown) => (await (await post(url, body)).json()) as Answer;

/** The data frames of an event stream, parsed ([DONE] kept as the string). */
const frames = (text: string) =>
  text
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => frame.replace(/^data: /, ''))
    .map((data) => (data === '[DONE]' ? data : (JSON.parse(data) as Record<string, unknown>)));

describe('ScriptedOpenAiServer', () => {
  let server: ScriptedOpenAiServer;

  afterEach(async () => {
    await server?.close();
  });

  it('answers chat, embeddings and rerank by default, records every request, 404s the rest', async () => {
    server = await ScriptedOpenAiServer.start();
    expect(server.baseUrl).toBe(`${server.origin}/v1`);
    const chat = await postJson(`${server.baseUrl}/chat/completions`, { messages: [] });
    expect(chat.choices[0].message.content).toBe('scripted answer');
    const embeddings = await postJson(`${server.baseUrl}/embeddings`, { input: ['ab', 'ab'], dimensions: 4 });
    expect(embeddings.data[0].embedding).toHaveLength(4);
    expect(embeddings.data[0].embedding).toEqual(embeddings.data[1].embedding);
    const rerank = await postJson(`${server.baseUrl}/rerank`, { documents: ['a', 'b'] });
    expect(rerank.results).toEqual([
      { index: 0, relevance_score: 1 },
      { index: 1, relevance_score: 0.5 },
    ]);
    expect((await post(`${server.baseUrl}/other`, {})).status).toBe(404);
    expect(server.calls).toBe(4);
    expect(server.requestsTo('/v1/embeddings')[0].body).toEqual({ input: ['ab', 'ab'], dimensions: 4 });
  });

  it('tries handlers newest first, then its script, and forgets the handlers on reset', async () => {
    server = await ScriptedOpenAiServer.start({ script: () => completion('from the script') });
    const ask = async () =>
      (await postJson(`${server.baseUrl}/chat/completions`, {})).choices[0].message.content;
    server.on(() => completion('older')).on((request) => (request.body.skip ? null : completion('newer')));
    expect(await ask()).toBe('newer');
    server.reset();
    expect(server.requests).toHaveLength(0);
    expect(await ask()).toBe('from the script');
  });

  it('streams the pieces with the usage on the last chunk, or none when the reply says so', async () => {
    server = await ScriptedOpenAiServer.start();
    server.on((request) => ({ stream: ['a ', 'b'], usage: request.body.quiet ? null : undefined }));
    const streamed = frames(
      await (await post(`${server.baseUrl}/chat/completions`, { stream: true })).text(),
    );
    expect(streamed.at(-1)).toBe('[DONE]');
    expect(streamed.at(-2)).toMatchObject({
      choices: [{ finish_reason: 'stop' }],
      usage: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 },
    });
    const quiet = frames(
      await (await post(`${server.baseUrl}/chat/completions`, { stream: true, quiet: true })).text(),
    );
    expect(quiet.at(-2)).not.toHaveProperty('usage');
  });

  it('waits its latency before each answer and counts the requests that overlap', async () => {
    server = await ScriptedOpenAiServer.start({ latencyMs: 150 });
    const started = Date.now();
    await Promise.all([1, 2, 3].map(() => post(`${server.baseUrl}/chat/completions`, {})));
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(server.maxInFlight).toBe(3);
  });

  it('stops counting a request in flight when its client leaves, and reset() starts the count again', async () => {
    server = await ScriptedOpenAiServer.start({ latencyMs: 60_000 });
    const leave = async () => {
      const controller = new AbortController();
      const request = fetch(`${server.baseUrl}/chat/completions`, {
        method: 'POST',
        body: '{}',
        signal: controller.signal,
      }).catch((error: unknown) => error);
      const before = server.aborted.length;
      while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      controller.abort();
      await request;
      while (server.aborted.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    await leave();
    expect(server.maxInFlight).toBe(1);
    server.reset();
    expect(server.maxInFlight).toBe(0);
    // The first request still sleeps out its latency on the server, but no longer counts.
    await leave();
    expect(server.maxInFlight).toBe(1);
  });

  it('reports a connection the client gave up on', async () => {
    server = await ScriptedOpenAiServer.start();
    server.on(() => ({ stream: ['a', 'b'], stallAfter: 1 }));
    const response = await post(`${server.baseUrl}/chat/completions`, { stream: true });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    const deadline = Date.now() + 2000;
    while (server.aborted.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(server.aborted).toHaveLength(1);
  });

  it('serves its record over HTTP and forgets it on POST /__reset', async () => {
    server = await ScriptedOpenAiServer.start();
    await post(`${server.baseUrl}/chat/completions`, { model: 'm' });
    const listed = (await (await fetch(`${server.origin}/__requests`)).json()) as { body: unknown }[];
    expect(listed.map((request) => request.body)).toEqual([{ model: 'm' }]);
    expect((await fetch(`${server.origin}/__reset`, { method: 'POST' })).status).toBe(204);
    expect(server.requests).toHaveLength(0);
  });
});

describe('searchBranchScript', () => {
  let server: ScriptedOpenAiServer;

  beforeAll(async () => {
    server = await ScriptedOpenAiServer.start({ script: searchBranchScript });
  });
  afterAll(() => server.close());

  it('answers the expansion prompt with variants of the query and HyDE with a passage about it', async () => {
    const ask = async (system: string, user: string) =>
      (
        await postJson(`${server.baseUrl}/chat/completions`, {
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
        })
      ).choices[0].message.content;
    expect(JSON.parse(await ask('Write exactly 2 different queries', 'Search query: vitamin d'))).toEqual({
      queries: ['vitamin d evidence', 'vitamin d mechanism'],
    });
    expect(await ask('Write one passage', 'Question: vitamin d')).toMatch(/^vitamin d\. Several studies/);
  });

  it('streams an answer eight words at a time', async () => {
    const text = await (
      await post(`${server.baseUrl}/chat/completions`, {
        stream: true,
        messages: [{ role: 'user', content: 'Question: sleep' }],
      })
    ).text();
    const pieces = frames(text).filter(
      (frame): frame is { choices: { delta: { content?: string } }[] } =>
        frame !== '[DONE]' && Boolean((frame.choices as { delta: { content?: string } }[])[0]?.delta.content),
    );
    expect(pieces[0].choices[0].delta.content!.split(' ').filter(Boolean)).toHaveLength(8);
  });
});

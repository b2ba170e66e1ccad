import { DataSource } from 'typeorm';
import { EMBEDDER } from '../providers/providers.module';
import { RUNBOOK_CORPUS, seedDocuments } from './helpers/seed-documents';
import { eventOf, postSse } from './helpers/sse-client';
import { startTestApp } from './helpers/test-app';
import type { TestApp } from './helpers/test-app';
import { testEnv } from './helpers/test-env';

/** The value of one series line of a Prometheus text answer, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics: HTTP, search and chat latency series', () => {
  let server: TestApp;

  const scrape = async (): Promise<string> => {
    const response = await fetch(`${server.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(async () => {
    server = await startTestApp(testEnv());
    await seedDocuments(server.app.get(DataSource), server.app.get(EMBEDDER), RUNBOOK_CORPUS);
  });

  afterAll(async () => {
    await server.close();
  });

  it('labels requests by route template and status, and counts searches and chat answers', async () => {
    const search = await fetch(`${server.baseUrl}/rag/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'How do I promote the standby replica?' }),
    });
    expect(search.status).toBe(200);
    const missing = await fetch(`${server.baseUrl}/conversations/3fa85f64-5717-4562-b3fc-2c963f66afa6`);
    expect(missing.status).toBe(404);
    expect((await fetch(`${server.baseUrl}/no-such-path`)).status).toBe(404);
    const chat = await postSse(`${server.baseUrl}/chat`, {
      message: 'How do I promote the standby replica?',
    });
    expect(eventOf(chat.events, 'done').notFound).toBe(false);

    const text = await scrape();
    expect(text).toContain('# TYPE lumina_http_request_duration_seconds histogram');
    expect(
      sample(
        text,
        'lumina_http_request_duration_seconds_count{method="POST",route="/rag/search",status="200"}',
      ),
    ).toBe(1);
    // The template, never the id: one series for every conversation.
    expect(
      sample(
        text,
        'lumina_http_request_duration_seconds_count{method="GET",route="/conversations/:id",status="404"}',
      ),
    ).toBe(1);
    expect(text).not.toContain('3fa85f64-5717-4562-b3fc-2c963f66afa6');
    expect(
      sample(text, 'lumina_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}'),
    ).toBe(1);
    expect(
      sample(text, 'lumina_http_request_duration_seconds_count{method="POST",route="/chat",status="200"}'),
    ).toBe(1);
    // One search for /rag/search and one for the chat's retrieval.
    expect(sample(text, 'lumina_search_duration_seconds_count{outcome="ok"}')).toBe(2);
    expect(sample(text, 'lumina_search_duration_seconds_sum{outcome="ok"}')).toBeGreaterThan(0);
    expect(sample(text, 'lumina_chat_answer_duration_seconds_count{status="complete"}')).toBe(1);
    expect(text).toContain('# TYPE lumina_search_errors_total counter');
    expect(text).toContain('# TYPE lumina_chat_errors_total counter');
    // The queue series are still there.
    expect(text).toContain('# TYPE lumina_queue_jobs gauge');

    // The scrape itself is counted by the next one.
    expect(
      sample(
        await scrape(),
        'lumina_http_request_duration_seconds_count{method="GET",route="/metrics",status="200"}',
      ),
    ).toBe(1);
  });
});

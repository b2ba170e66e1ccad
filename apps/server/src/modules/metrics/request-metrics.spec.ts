import { RequestMetrics } from './request-metrics';

async function value(metrics: RequestMetrics, series: string): Promise<number | undefined> {
  const line = (await metrics.registry.metrics()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('RequestMetrics', () => {
  it('times a search and counts its error by code, rethrowing it', async () => {
    const metrics = new RequestMetrics();
    await expect(metrics.timeSearch(async () => 'ranked')).resolves.toBe('ranked');
    const unavailable = Object.assign(new Error('database down'), { code: 'unavailable' });
    await expect(metrics.timeSearch(() => Promise.reject(unavailable))).rejects.toBe(unavailable);
    await expect(metrics.timeSearch(() => Promise.reject(new Error('no code')))).rejects.toThrow('no code');
    expect(await value(metrics, 'lumina_search_duration_seconds_count{outcome="ok"}')).toBe(1);
    expect(await value(metrics, 'lumina_search_duration_seconds_count{outcome="error"}')).toBe(2);
    expect(await value(metrics, 'lumina_search_errors_total{code="unavailable"}')).toBe(1);
    expect(await value(metrics, 'lumina_search_errors_total{code="internal"}')).toBe(1);
  });

  it('observes chat answers by status and counts failed ones by code', async () => {
    const metrics = new RequestMetrics();
    metrics.observeChat('complete', 0.2);
    metrics.observeChat('failed', 1.5, 'llm_unavailable');
    metrics.observeChat('cancelled', 0.1);
    metrics.countChatError('internal');
    expect(await value(metrics, 'lumina_chat_answer_duration_seconds_count{status="complete"}')).toBe(1);
    expect(await value(metrics, 'lumina_chat_answer_duration_seconds_sum{status="failed"}')).toBe(1.5);
    expect(await value(metrics, 'lumina_chat_errors_total{code="llm_unavailable"}')).toBe(1);
    expect(await value(metrics, 'lumina_chat_errors_total{code="internal"}')).toBe(1);
    expect(await value(metrics, 'lumina_chat_errors_total{code="cancelled"}')).toBeUndefined();
  });
});

import { DEFAULT_SETTINGS, resolveSettings } from '@lumina/shared';
import { explainMetric, runLabels, runTime, settingsFacts } from './eval-runs';

describe('evaluation runs as a person reads them', () => {
  it('labels runs by the minute, with seconds when two share a minute, and an id when they share a second', () => {
    const labels = runLabels([
      { id: 'aaaaaaaa-1', createdAt: '2026-12-03T17:40:00Z', finishedAt: '2026-12-03T17:45:09Z' },
      { id: 'bbbbbbbb-2', createdAt: '2026-12-03T17:40:00Z', finishedAt: '2026-12-03T17:45:41Z' },
      { id: 'cccccccc-3', createdAt: '2026-12-03T17:50:00Z', finishedAt: '2026-12-03T17:51:02Z' },
      { id: 'dddddddd-4', createdAt: '2026-12-03T17:50:00Z', finishedAt: '2026-12-03T17:51:02Z' },
      { id: 'eeeeeeee-5', createdAt: '2026-12-03T18:00:00Z', finishedAt: null },
    ]);
    expect([...labels.values()]).toEqual([
      '2026-12-03 17:45:09',
      '2026-12-03 17:45:41',
      '2026-12-03 17:51:02 · cccccc',
      '2026-12-03 17:51:02 · dddddd',
      '2026-12-03 18:00',
    ]);
    expect(new Set(labels.values()).size).toBe(5);
    expect(runTime('2026-12-03T17:45:09.500Z', true)).toBe('2026-12-03 17:45:09');
    expect(runTime(null)).toBe('—');
  });

  it('lists the settings a run searched with', () => {
    expect(settingsFacts({ ...DEFAULT_SETTINGS, documentIds: [] })).toEqual([
      { label: 'Ranker', value: 'Hybrid (BM25 + dense, fused)' },
      { label: 'Passages', value: 'top 6 of 30 candidates per branch' },
      { label: 'Query expansion', value: 'off' },
      { label: 'HyDE', value: 'off' },
      { label: 'Reranking', value: 'off' },
      { label: 'Minimum score', value: 'none' },
      { label: 'Documents', value: 'all' },
    ]);
    const tuned = settingsFacts(
      resolveSettings({
        ranker: 'hybrid',
        enableQueryExpansion: 'adaptive',
        enableHyDE: true,
        enableRerank: true,
        minScore: 0.2,
        documentIds: ['a'],
      }),
    );
    expect(Object.fromEntries(tuned.map((fact) => [fact.label, fact.value]))).toMatchObject({
      Ranker: 'Hybrid (BM25 + dense, fused)',
      'Query expansion': 'adaptive (on, 3 variants when it measured better)',
      HyDE: 'on',
      Reranking: 'on',
      'Minimum score': '0.20',
      Documents: '1 chosen document',
    });
  });

  it('explains hit@1, MRR and nDCG in a sentence, and nothing it does not know', () => {
    expect(explainMetric('hit@1')).toBe('Share of questions whose first result is an expected source.');
    expect(explainMetric('hit@5')).toContain('among the first 5 results');
    expect(explainMetric('mrr@10')).toMatch(
      /^Mean reciprocal rank: 1 when the first expected source is ranked first/,
    );
    expect(explainMetric('ndcg@10')).toMatch(/^Normalised discounted cumulative gain/);
    expect(explainMetric('recall@100')).toContain('first 100 results');
    expect(explainMetric('latency')).toBeNull();
  });
});

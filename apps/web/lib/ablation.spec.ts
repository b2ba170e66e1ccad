import type { Ablation, AblationRow, BankEnhancementWarnings } from '@lumina/shared';
import {
  ablationActive,
  ablationChartData,
  bestRow,
  enhancementWarningSentences,
  formatRate,
  switchesAsOverrides,
} from './ablation';

const row = (runId: string, ndcg: number | null): AblationRow => ({
  runId,
  label: `combination ${runId}`,
  switches: { ranker: 'bm25', enableQueryExpansion: false, enableHyDE: true, enableRerank: false },
  status: ndcg === null ? 'running' : 'completed',
  error: null,
  figures:
    ndcg === null
      ? null
      : {
          'ndcg@10': ndcg,
          'mrr@10': ndcg / 2,
          support: null,
          inScopeRefused: null,
          outOfScopeAnswered: null,
          latencyP50Ms: 4,
          llmCalls: 0,
        },
});

describe('ablation view helpers', () => {
  const ablation: Pick<Ablation, 'rows' | 'bestRunId'> = {
    rows: [row('a', 0.5), row('b', null), row('c', 0.9)],
    bestRunId: 'c',
  };

  it('charts the completed rows, numbered as in the matrix, the best starred', () => {
    expect(ablationChartData(ablation)).toEqual([
      { axis: '#1', label: 'combination a', ndcg: 0.5, mrr: 0.25, best: false },
      { axis: '#3 ★', label: 'combination c', ndcg: 0.9, mrr: 0.45, best: true },
    ]);
    expect(bestRow(ablation)?.runId).toBe('c');
    expect(bestRow({ ...ablation, bestRunId: null })).toBeNull();
  });

  it('writes exactly the four switches into the drawer, and polls only while queued or running', () => {
    const withExtra = { ...row('a', 1).switches, topK: 3 } as AblationRow['switches'];
    expect(switchesAsOverrides(withExtra)).toEqual({
      ranker: 'bm25',
      enableQueryExpansion: false,
      enableHyDE: true,
      enableRerank: false,
    });
    expect(ablationActive({ status: 'running' })).toBe(true);
    expect(ablationActive({ status: 'completed' })).toBe(false);
    expect(ablationActive(null)).toBe(false);
    expect(formatRate(0.125)).toBe('13%');
    expect(formatRate(null)).toBe('—');
  });
});

describe('enhancementWarningSentences', () => {
  const bank = (name: string, generator: 'llm' | 'prf', worse: BankEnhancementWarnings['worse']) => ({
    bankId: name,
    bankName: name,
    ablationId: `a-${name}`,
    generator,
    finishedAt: null,
    worse,
  });
  const banks: BankEnhancementWarnings[] = [
    bank('Docs', 'prf', [
      { enhancement: 'hyde', ranker: 'bm25', off: 0.813, offRunId: 'r1', on: 0.658, onRunId: 'r2' },
      { enhancement: 'expansion', ranker: 'bm25', off: 0.813, offRunId: 'r1', on: 0.727, onRunId: 'r3' },
    ]),
    bank('Papers', 'llm', [
      { enhancement: 'hyde', ranker: 'dense', off: 0.5, offRunId: 'r4', on: 0.41, onRunId: 'r5' },
    ]),
  ];

  it('says, per bank, which enhancement scored under its ranker alone, with both figures', () => {
    expect(enhancementWarningSentences(banks, 'hyde')).toEqual([
      'On “Docs”, bm25 + HyDE (PRF) scored nDCG@10 0.658 against 0.813 for bm25 alone.',
      'On “Papers”, dense + HyDE scored nDCG@10 0.410 against 0.500 for dense alone.',
    ]);
    expect(enhancementWarningSentences(banks, 'expansion')).toEqual([
      'On “Docs”, bm25 + query expansion (PRF) scored nDCG@10 0.727 against 0.813 for bm25 alone.',
    ]);
    expect(enhancementWarningSentences(banks, 'rerank')).toEqual([]);
  });
});

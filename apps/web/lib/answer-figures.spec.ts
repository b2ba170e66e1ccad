import type { AnswerMetrics } from '@lumina/shared';
import { answerFigures, compareAnswerFigures, formatDifference, itemOutcome } from './answer-figures';

const rate = (count: number, items: number, low: number, high: number) => ({
  items,
  count,
  rate: items ? count / items : 0,
  low,
  high,
});

const run = (refused: number, answered: number, auc: number | null, supported: number): AnswerMetrics => ({
  inScopeRefused: rate(refused, 20, 0.01, 0.24),
  outOfScopeAnswered: rate(answered, 10, 0, 0.28),
  auc,
  support: rate(supported, 20 - refused, 0.6, 0.95),
  modelVersion: 'answerability-v1',
  generator: 'extractive-v2',
});

describe('answer figures', () => {
  it('shows each rate with its count and interval, and the AUC as a number', () => {
    const rows = answerFigures(run(1, 0, 0.912, 16));
    expect(rows.map((row) => [row.label, row.text, row.detail])).toEqual([
      ['In-scope refused', '5.0%', '1 of 20 · 95% CI 1.0–24.0%'],
      ['Out-of-scope answered', '0.0%', '0 of 10 · 95% CI 0.0–28.0%'],
      ['AUC', '0.912', null],
      ['Answer support', '84.2%', '16 of 19 · 95% CI 60.0–95.0%'],
    ]);
  });

  it('says "no items" for a rate over nothing instead of inventing 0%', () => {
    const rows = answerFigures({ ...run(0, 0, null, 0), outOfScopeAnswered: rate(0, 0, 0, 0) });
    expect(rows[1]).toMatchObject({ value: null, text: '—', detail: 'no items' });
    expect(rows[2]).toMatchObject({ value: null, detail: 'needs both kinds of question' });
  });

  it('compares two runs: B − A, and better or worse by which way each figure should go', () => {
    const rows = compareAnswerFigures(run(4, 3, 0.8, 10), run(1, 3, 0.9, 16));
    expect(rows.map((row) => [row.key, row.verdict, formatDifference(row.key, row.difference)])).toEqual([
      ['inScopeRefused', 'better', '−15.0 pt'],
      ['outOfScopeAnswered', 'same', '±0.0 pt'],
      ['auc', 'better', '+0.100'],
      ['support', 'better', '+21.7 pt'],
    ]);
    const worse = compareAnswerFigures(run(1, 1, 0.9, 16), run(2, 4, 0.7, 12));
    expect(worse.map((row) => row.verdict)).toEqual(['worse', 'worse', 'worse', 'worse']);
  });

  it('compares with a run that has no answer figures as not comparable', () => {
    const rows = compareAnswerFigures(null, run(1, 0, 0.9, 16));
    expect(rows).toHaveLength(4);
    expect(rows.every((row) => row.a === null && row.difference === null && row.verdict === null)).toBe(true);
    expect(compareAnswerFigures(null, null)).toEqual([]);
  });

  it('calls a refused out-of-scope item right and a refused in-scope item wrong', () => {
    expect(itemOutcome({ inScope: false, refused: true })).toEqual({ label: 'refused', correct: true });
    expect(itemOutcome({ inScope: true, refused: true })).toEqual({ label: 'refused', correct: false });
    expect(itemOutcome({ inScope: true, refused: false })).toEqual({ label: 'answered', correct: true });
  });
});

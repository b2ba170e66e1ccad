import { LTR_FEATURES } from '@lumina/rag';
import type { EvaluableItem } from '../bank/bank-evaluation';
import { MIN_FIT_QUESTIONS, bankRankingSample, compareConfigured, fitOnBank } from './bank-fit';
import type { JudgedRankingSample } from './cross-validate-ltr';
import { defaultFitSpec } from './fit-ranking-model';

const item = (sources: EvaluableItem['expectedSources'], inScope = true): EvaluableItem => ({
  id: 'q1',
  question: 'how do I rotate the keys?',
  inScope,
  expectedSources: sources,
});
const recorded = {
  chunkIds: ['c1', 'c2', 'c3'],
  documentIds: ['d1', 'd1', 'd2'],
  rows: [[1], [2], [3]],
};

describe('a bank item as a judged ranking sample', () => {
  it('judges passages when every expected source names a chunk', () => {
    const sample = bankRankingSample(item([{ chunkId: 'c2' }]), recorded);
    expect(sample).toMatchObject({ documents: ['c1', 'c2', 'c3'], relevance: [0, 1, 0], judged: { c2: 1 } });
  });

  it('judges documents otherwise, with their grades', () => {
    const sample = bankRankingSample(item([{ documentId: 'd1', grade: 2 }, { chunkId: 'c3' }]), recorded);
    expect(sample).toMatchObject({ documents: ['d1', 'd1', 'd2'], relevance: [2, 2, 0] });
  });

  it('leaves out-of-scope items and items without sources out', () => {
    expect(bankRankingSample(item([{ documentId: 'd1' }], false), recorded)).toBeNull();
    expect(bankRankingSample(item([]), recorded)).toBeNull();
  });
});

/** Questions whose one relevant candidate (its own document) sits at rank 4, marked by one feature. */
function bank(questions: number): JudgedRankingSample[] {
  const decisive = LTR_FEATURES.indexOf('idfCoverage');
  let state = 5;
  const random = () => (state = (state * 16807) % 2147483647) / 2147483647;
  return Array.from({ length: questions }, (_, q) => {
    const rows = Array.from({ length: 8 }, (_, i) =>
      LTR_FEATURES.map((_, f) => (f === decisive ? (i === 3 ? 0.9 : 0.2) + random() * 0.1 : random())),
    );
    return {
      queryId: `q${q}`,
      rows,
      documents: rows.map((_, i) => `q${q}-d${i}`),
      relevance: rows.map((_, i) => (i === 3 ? 1 : 0)),
      judged: { [`q${q}-d3`]: 1 },
    };
  });
}

const source = { version: 'bank-v1', source: 'bank:synthetic', candidateDepth: 8 };

describe('fitting on a bank', () => {
  it('cross-validates by groups of questions about the same source, then fits on every question', () => {
    const fit = fitOnBank(bank(30), defaultFitSpec(source));
    expect(fit.measurement).toMatchObject({
      folds: 5,
      queries: 30,
      groupedBySource: true,
      preferred: 'learned',
    });
    expect(fit.measurement.ndcgBefore).toBeCloseTo(1 / Math.log2(5), 4); // rank 4
    expect(fit.measurement.ndcgAfter).toBeGreaterThan(0.95);
    expect(fit.model.version).toBe('bank-v1');
    expect(fit.heldOut).toHaveLength(30);
  });

  it('falls back to plain folds when too few questions stand apart', () => {
    // Every question judges the same document: one group.
    const shared = bank(12).map((s) => ({ ...s, judged: { same: 1 } }));
    expect(fitOnBank(shared, defaultFitSpec(source)).measurement.groupedBySource).toBe(false);
  });

  it('refuses a bank with too few questions the search can move, saying why', () => {
    const small = bank(MIN_FIT_QUESTIONS - 1);
    const unfound = bank(5).map((s) => ({ ...s, relevance: s.relevance.map(() => 0) }));
    expect(() => fitOnBank([...small, ...unfound], defaultFitSpec(source))).toThrow(
      /only 9 question\(s\) of the bank have an expected source among the search's candidates/,
    );
  });

  it("prefers the configured reranker only when it scored higher on the bank's questions", () => {
    const fit = fitOnBank(bank(20), defaultFitSpec(source));
    const searchOrder = fit.samples.map((s) => s.rows.map((_, i) => i));
    const perfect = fit.samples.map((s) => [3, ...s.rows.map((_, i) => i).filter((i) => i !== 3)]);
    const worse = compareConfigured(fit, { model: 'llm:judge', orders: searchOrder, calls: 20 });
    expect(worse.configured).toMatchObject({ model: 'llm:judge', calls: 20 });
    expect(worse.configured!.ndcg).toBeCloseTo(0.4307, 3);
    expect(worse.preferred).toBe('learned');
    const better = compareConfigured(
      { ...fit, measurement: { ...fit.measurement, ndcgAfter: 0.9 } },
      { model: 'llm:judge', orders: perfect, calls: 20 },
    );
    expect(better.configured!.ndcg).toBe(1);
    expect(better.preferred).toBe('configured');
  });
});

import { answerabilityFeatures, idf, weightedQueryTerms } from './answerability-features';
import type { TermEvidence } from './term-evidence';

/** 100 chunks of average length 10; "kafka" is unseen, "redis" rare, "queue" common. */
function evidence(passages: TermEvidence['passages']): TermEvidence {
  return {
    corpus: { chunks: 100, avgLength: 10 },
    bm25: { k1: 0.9, b: 0.4 },
    terms: [
      { term: 'kafka', qtf: 1, df: 0 },
      { term: 'queue', qtf: 1, df: 50 },
      { term: 'redi', qtf: 1, df: 2 },
    ],
    passages,
  };
}

describe('answerability features', () => {
  const idfKafka = idf(0, 100);
  const idfQueue = idf(50, 100);
  const idfRedis = idf(2, 100);
  const mass = idfKafka + idfQueue + idfRedis;

  it('weighs the words by idf, an unseen word the most', () => {
    expect(idfKafka).toBeGreaterThan(idfRedis);
    expect(idfRedis).toBeGreaterThan(idfQueue);
    expect(weightedQueryTerms(evidence([])).map((t) => t.term)).toEqual(['kafka', 'redi', 'queue']);
  });

  it('measures how much of the question the corpus and the passages hold', () => {
    const f = answerabilityFeatures({
      evidence: evidence([
        { chunkId: 'a', length: 10, tf: { redi: 2, queue: 1 } },
        { chunkId: 'b', length: 20, tf: { queue: 3 } },
      ]),
    });
    expect(f.idfMassInCorpus).toBeCloseTo((idfQueue + idfRedis) / mass);
    // The two most salient words are kafka (unseen) and redi (seen).
    expect(f.salientInCorpus).toBe(0.5);
    expect(f.coverageTop1).toBeCloseTo((idfQueue + idfRedis) / mass);
    expect(f.coverageTop3).toBeCloseTo((idfQueue + idfRedis) / mass);
    expect(f.coverageUnion3).toBeCloseTo((idfQueue + idfRedis) / mass);
    expect(f.salientInTop1).toBe(1);
    expect(f.logQueryTerms).toBeCloseTo(Math.log(4));
    expect(f.branchAgreement).toBe(1);
    expect(f.denseTop1).toBe(0);
  });

  it('computes BM25 of the passages exactly as the SQL does, relative to the best reachable', () => {
    const f = answerabilityFeatures({ evidence: evidence([{ chunkId: 'a', length: 10, tf: { redi: 1 } }]) });
    // length = avg: norm = k1; score = idf · tf(k1+1)/(tf+k1) = idf for tf = 1.
    const best = (mass * 1.9) as number;
    expect(f.bm25Relative).toBeCloseTo(idfRedis / best);
    expect(f.bm25Margin).toBe(1);
  });

  it('finds the one sentence that names most of the question', () => {
    const f = answerabilityFeatures({
      evidence: evidence([{ chunkId: 'a', length: 10, tf: { redi: 1, queue: 1 } }]),
      passageTexts: [{ text: 'Redis holds every queue. Unrelated words follow here.', context: '' }],
    });
    expect(f.sentenceCoverage).toBeCloseTo((idfQueue + idfRedis) / mass);
  });

  it('counts the lists that agree on the best passage', () => {
    const f = answerabilityFeatures({
      evidence: evidence([{ chunkId: 'a', length: 10, tf: {} }]),
      branchTops: [['a', 'b'], ['c', 'd', 'e', 'a'], []],
    });
    expect(f.branchAgreement).toBe(0.5);
  });

  it('is all zeros for a query without words or passages', () => {
    const f = answerabilityFeatures({
      evidence: { corpus: { chunks: 0, avgLength: 0 }, bm25: { k1: 0.9, b: 0.4 }, terms: [], passages: [] },
    });
    expect(Object.values(f).every((v) => v === 0 || v === 1)).toBe(true);
    expect(f.coverageTop1).toBe(0);
  });
});

import { idf } from '../../answerability/answerability-features';
import type { RerankCandidate } from '../reranker.port';
import { LTR_FEATURES, ltrFeatureRows, orderedPairs, spanDensity, windowCoverage } from './ltr-features';
import type { LtrFeature } from './ltr-features';
import type { RerankEvidence, RerankPassageEvidence } from './rerank-evidence';

/** 100 chunks of average length 10; query "redis queue kafka": redi rare, queue common, kafka unseen. */
function evidence(passages: RerankPassageEvidence[]): RerankEvidence {
  return {
    corpus: { chunks: 100, avgLength: 10 },
    bm25: { k1: 0.9, b: 0.4 },
    terms: [
      { term: 'kafka', qtf: 1, df: 0, position: 3 },
      { term: 'queue', qtf: 1, df: 50, position: 2 },
      { term: 'redi', qtf: 1, df: 2, position: 1 },
    ],
    passages,
  };
}

function passage(
  chunkId: string,
  length: number,
  positions: Record<string, number[]>,
  titleTf = {},
): RerankPassageEvidence {
  return { chunkId, length, positions, titleTf, titleLength: 3, headingTf: {}, headingLength: 0 };
}

function candidate(
  chunkId: string,
  documentId: string,
  fusedRank: number,
  branches: RerankCandidate['branches'],
): RerankCandidate {
  return { chunkId, documentId, externalId: null, title: '', headingPath: [], text: '', fusedRank, branches };
}

function feature(row: number[], name: LtrFeature): number {
  return row[LTR_FEATURES.indexOf(name)];
}

describe('learned reranker features', () => {
  const k1 = 0.9;
  const b = 0.4;
  const idfRedis = idf(2, 100);
  const idfQueue = idf(50, 100);
  const idfKafka = idf(0, 100);
  const mass = idfRedis + idfQueue + idfKafka;
  // a: "redi queue" side by side, twice redi; b: queue alone, longer; c: same document as a, queue far from redi.
  const passages = [
    passage('a', 10, { redi: [1, 5], queue: [2] }, { redi: 1 }),
    passage('b', 20, { queue: [4, 9, 12] }),
    passage('c', 10, { redi: [1], queue: [8] }),
  ];
  const candidates = [
    candidate('a', 'doc-1', 1, [{ branch: 'original:bm25', rank: 1, score: 3 }]),
    candidate('b', 'doc-2', 2, [
      { branch: 'original:bm25', rank: 2, score: 2 },
      { branch: 'original:dense', rank: 1, score: 0.8 },
    ]),
    candidate('c', 'doc-1', 3, [{ branch: 'original:dense', rank: 4, score: 0.5 }]),
  ];
  const rows = ltrFeatureRows(candidates, evidence(passages));
  const termScore = (df: number, tf: number, length: number) =>
    (idf(df, 100) * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / 10));

  it('computes BM25 of each passage exactly as the SQL does (unseen terms score nothing)', () => {
    const a = termScore(2, 2, 10) + termScore(50, 1, 10);
    const bScore = termScore(50, 3, 20);
    const c = termScore(2, 1, 10) + termScore(50, 1, 10);
    expect(feature(rows[0], 'bm25')).toBeCloseTo(a, 10);
    expect(feature(rows[1], 'bm25')).toBeCloseTo(bScore, 10);
    expect(feature(rows[2], 'bm25')).toBeCloseTo(c, 10);
    expect(feature(rows[0], 'bm25Relative')).toBe(1);
    expect(feature(rows[1], 'bm25Relative')).toBeCloseTo(bScore / a, 10);
  });

  it('scores the title on its own, with saturated tf and no length normalisation', () => {
    expect(feature(rows[0], 'bm25Title')).toBeCloseTo(idfRedis, 10); // tf 1: 1·(k1+1)/(1+k1) = 1
    expect(feature(rows[1], 'bm25Title')).toBe(0);
    expect(feature(rows[0], 'idfCoverageTitle')).toBeCloseTo(idfRedis / mass, 10);
    expect(feature(rows[0], 'bm25Heading')).toBe(0);
  });

  it('measures how much of the query idf mass and terms a passage holds', () => {
    expect(feature(rows[0], 'idfCoverage')).toBeCloseTo((idfRedis + idfQueue) / mass, 10);
    expect(feature(rows[1], 'idfCoverage')).toBeCloseTo(idfQueue / mass, 10);
    expect(feature(rows[0], 'termCoverage')).toBeCloseTo(2 / 3, 10);
    expect(feature(rows[1], 'termCoverage')).toBeCloseTo(1 / 3, 10);
  });

  it('measures proximity: the shortest window of the query terms, and pairs in query order', () => {
    expect(feature(rows[0], 'spanDensity')).toBe(1); // redi at 1, queue at 2: 2 terms in 2 positions
    expect(feature(rows[1], 'spanDensity')).toBe(0); // one term only
    expect(feature(rows[2], 'spanDensity')).toBeCloseTo(2 / 8, 10); // positions 1 and 8
    // Query order redi → queue → kafka: the pair (redi, queue) is found in a, not (queue, kafka).
    expect(feature(rows[0], 'orderedPairs')).toBe(0.5);
    expect(feature(rows[2], 'orderedPairs')).toBe(0);
  });

  it('reads the branches: dense cosine and reciprocal ranks, 0 where a branch did not find it', () => {
    expect(feature(rows[1], 'denseCosine')).toBe(0.8);
    expect(feature(rows[0], 'denseCosine')).toBe(0);
    expect(feature(rows[1], 'lexicalReciprocalRank')).toBe(0.5);
    expect(feature(rows[2], 'lexicalReciprocalRank')).toBe(0);
    expect(feature(rows[2], 'denseReciprocalRank')).toBe(0.25);
    expect(feature(rows[2], 'fusedLogRank')).toBeCloseTo(Math.log(3), 10);
  });

  it("reads the query's cosine to each passage from the evidence, before the dense branch's score", () => {
    // a has a cosine from the evidence, b none there (its dense-branch score stands in), c a lower one.
    const withCosines = ltrFeatureRows(
      candidates,
      evidence([
        { ...passages[0], cosine: 0.6 },
        { ...passages[1], cosine: null },
        { ...passages[2], cosine: 0.2 },
      ]),
    );
    expect(withCosines.map((row) => feature(row, 'denseCosine'))).toEqual([0.6, 0.8, 0.2]);
    expect(feature(withCosines[0], 'denseMargin')).toBeCloseTo(-0.2, 10);
    expect(feature(withCosines[1], 'denseMargin')).toBe(0);
    expect(feature(withCosines[2], 'denseMargin')).toBeCloseTo(-0.6, 10);
    expect(withCosines.map((row) => feature(row, 'denseCandidateReciprocalRank'))).toEqual([0.5, 1, 1 / 3]);
    // Without any cosine (no vector, no dense branch) every dense feature is 0.
    const none = ltrFeatureRows(
      candidates.map((c) => ({ ...c, branches: c.branches.filter((b) => b.branch !== 'original:dense') })),
      evidence(passages),
    );
    for (const row of none)
      for (const name of ['denseCosine', 'denseMargin', 'denseCandidateReciprocalRank'] as const)
        expect(feature(row, name)).toBe(0);
  });

  it('aggregates per document: best and second-best passage, which is the best, how many', () => {
    const cRelative = feature(rows[2], 'bm25Relative');
    expect(feature(rows[0], 'documentBest')).toBe(1);
    expect(feature(rows[2], 'documentBest')).toBe(1);
    expect(feature(rows[0], 'documentSecond')).toBeCloseTo(cRelative, 10);
    expect(feature(rows[1], 'documentSecond')).toBe(0);
    expect(feature(rows[0], 'documentBestPassage')).toBe(1);
    expect(feature(rows[2], 'documentBestPassage')).toBe(0);
    expect(feature(rows[0], 'documentPassages')).toBeCloseTo(Math.log(2), 10);
    expect(feature(rows[1], 'documentPassages')).toBe(0);
  });

  it('scores BM25 again with Lucene defaults and without length normalisation', () => {
    const lucene = (df: number, tf: number, length: number) =>
      (idf(df, 100) * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * length) / 10));
    expect(feature(rows[1], 'bm25Lucene')).toBeCloseTo(lucene(50, 3, 20), 10);
    expect(feature(rows[1], 'bm25NoLength')).toBeCloseTo((idfQueue * 3 * 2.2) / (3 + 1.2), 10);
  });

  it('finds the idf mass held within a sentence-sized window, and a missing rarest term', () => {
    expect(feature(rows[0], 'windowCoverage')).toBeCloseTo((idfRedis + idfQueue) / mass, 10);
    expect(feature(rows[1], 'windowCoverage')).toBeCloseTo(idfQueue / mass, 10);
    // redi is the rarest term the corpus uses (kafka is unseen): b lacks it.
    expect(feature(rows[0], 'missingSalient')).toBe(0);
    expect(feature(rows[1], 'missingSalient')).toBe(1);
  });

  it('measures length against the corpus average', () => {
    expect(feature(rows[1], 'lengthRatio')).toBe(2);
    expect(feature(rows[1], 'logLength')).toBeCloseTo(Math.log(21), 10);
  });

  it('refuses evidence that does not cover every candidate', () => {
    expect(() => ltrFeatureRows(candidates, evidence(passages.slice(0, 2)))).toThrow(/2 passages of 3/);
  });
});

describe('span density, window coverage and ordered pairs', () => {
  it('sums the weights of distinct terms inside the best window only', () => {
    const weights = new Map([
      ['a', 0.5],
      ['b', 0.3],
      ['c', 0.2],
    ]);
    // a at 1–2, b at 4, c at 24: windows of 3 or 4 positions hold a and b, one of 30 holds all three.
    const positions = { a: [1, 2], b: [4], c: [24] };
    expect(windowCoverage(positions, weights, 4)).toBeCloseTo(0.8, 10);
    expect(windowCoverage(positions, weights, 2)).toBeCloseTo(0.5, 10); // positions 2–4 span 3
    expect(windowCoverage(positions, weights, 30)).toBeCloseTo(1, 10);
    expect(windowCoverage({}, weights, 16)).toBe(0);
  });

  it('finds the shortest window holding every held term once', () => {
    // a at 1 and 20, b at 10 and 22, c at 21: the window 20–22 holds all three.
    const positions = { a: [1, 20], b: [10, 22], c: [21] };
    expect(spanDensity(positions, [{ term: 'a' }, { term: 'b' }, { term: 'c' }])).toBe(1);
    expect(spanDensity({ a: [1], b: [5] }, [{ term: 'a' }, { term: 'b' }, { term: 'z' }])).toBeCloseTo(
      2 / 5,
      10,
    );
  });

  it('counts a pair only in query order and at most three positions apart', () => {
    const order = [{ term: 'a' }, { term: 'b' }];
    expect(orderedPairs({ a: [4], b: [7] }, order)).toBe(1);
    expect(orderedPairs({ a: [4], b: [8] }, order)).toBe(0);
    expect(orderedPairs({ a: [7], b: [4] }, order)).toBe(0);
    expect(orderedPairs({ a: [1] }, [{ term: 'a' }])).toBe(0);
  });
});

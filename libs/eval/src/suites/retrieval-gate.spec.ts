import { LTR_FEATURES } from '@lumina/rag';
import type { LtrModel } from '@lumina/rag';
import type { BeirDataset } from '../datasets';
import type { ReportComparison } from '../runner/compare-reports';
import { formatReport } from '../runner/format-report';
import { REPORT_METRICS } from '../runner/retrieval-report';
import type { RetrievalReport } from '../runner/retrieval-report';
import {
  formatGateFit,
  gateFitSpec,
  gateFitSubset,
  gateMeasurements,
  gateRankers,
  gateRetrievalRankers,
  gateRuns,
  gateVerdict,
  updatedGateBaseline,
} from './retrieval-gate';
import type { GateBaseline, GateFit } from './retrieval-gate';

const BASELINE: GateBaseline = {
  dataset: 'scifact',
  subset: { queries: 100, distractors: 400, seed: 1 },
  chunking: { unit: 'chunk', maxChars: 1200, overlapChars: 200 },
  tolerance: 0.005,
  ndcgAt10: { hybrid: 0.7, bm25: 0.6 },
};

const FIT: GateFit = {
  split: 'train',
  subset: { queries: 2, distractors: 1, seed: 3 },
  learner: 'linear',
  l2: 1,
  dense: true,
};
const LEARNED: GateBaseline = { ...BASELINE, fit: FIT, ndcgAt10: { ...BASELINE.ndcgAt10, 'bm25+ltr': 0.65 } };

/** A tiny BEIR split: queries q1…q4 (q4 unjudged), one judged document each, two others. */
function split(name: string, texts: Record<string, string>): BeirDataset {
  const ids = Object.keys(texts);
  return {
    dir: 'scifact',
    split: name,
    corpus: new Map(
      ['d1', 'd2', 'd3', 'x1', 'x2'].map((id) => [id, { id, title: id, text: `text of ${id}` }]),
    ),
    queries: new Map(Object.entries(texts)),
    qrels: new Map(ids.slice(0, 3).map((id, i) => [id, new Map([[`d${i + 1}`, 1]])])),
  };
}

describe('retrieval gate', () => {
  it('holds the rankers the baseline names, BM25 first', () => {
    expect(gateRankers(BASELINE)).toEqual(['bm25', 'hybrid']);
    expect(gateRankers({ ...BASELINE, ndcgAt10: { bm25: 0.6 } })).toEqual(['bm25']);
  });

  it('passes at the floor and reports a regression below it', () => {
    const held = gateVerdict(
      'scifact',
      BASELINE,
      new Map([
        ['bm25', 0.595],
        ['hybrid', 0.71],
      ]),
    );
    expect(held.passed).toBe(true);
    expect(held.lines).toEqual([
      'gate scifact\nranker     measured  baseline  floor     verdict',
      'bm25       0.5950    0.6000    0.5950    ok',
      'hybrid     0.7100    0.7000    0.6950    ok',
    ]);
    const fell = gateVerdict(
      'scifact',
      BASELINE,
      new Map([
        ['bm25', 0.5949],
        ['hybrid', 0.71],
      ]),
    );
    expect(fell.passed).toBe(false);
    expect(fell.lines[1]).toMatch(/REGRESSION$/);
  });

  it('rewrites the baseline with the measurements to four decimals', () => {
    const updated = updatedGateBaseline(
      BASELINE,
      new Map([
        ['bm25', 0.612345],
        ['hybrid', 0.70006],
      ]),
    );
    expect(updated.ndcgAt10).toEqual({ bm25: 0.6123, hybrid: 0.7001 });
    expect(updated.subset).toBe(BASELINE.subset);
  });

  it('holds the learned reranker after the retrieval rankers whenever the baseline fits one', () => {
    expect(gateRankers(LEARNED)).toEqual(['bm25', 'hybrid', 'bm25+ltr']);
    expect(gateRetrievalRankers(LEARNED)).toEqual(['bm25', 'hybrid']);
    // Fitted but not yet recorded: measured, and the update records it.
    const unrecorded = { ...LEARNED, ndcgAt10: { bm25: 0.6 } };
    expect(gateRankers(unrecorded)).toEqual(['bm25', 'bm25+ltr']);
    const updated = updatedGateBaseline(
      unrecorded,
      new Map([
        ['bm25', 0.6],
        ['bm25+ltr', 0.61234],
      ]),
    );
    expect(updated.ndcgAt10).toEqual({ bm25: 0.6, 'bm25+ltr': 0.6123 });
    expect(updated.fit).toBe(FIT);
    expect(() => updatedGateBaseline(unrecorded, new Map([['bm25', 0.6]]))).toThrow(/bm25\+ltr/);
  });

  it('gates the learned reranker on its own floor, and fails while it has no baseline figure', () => {
    const measured = new Map([
      ['bm25', 0.6],
      ['hybrid', 0.7],
      ['bm25+ltr', 0.645],
    ] as const);
    const held = gateVerdict('scifact', LEARNED, measured);
    expect(held.passed).toBe(true);
    expect(held.lines[3]).toBe('bm25+ltr   0.6450    0.6500    0.6450    ok');
    const fell = gateVerdict('scifact', LEARNED, new Map([...measured, ['bm25+ltr', 0.6449]]));
    expect(fell.passed).toBe(false);
    expect(fell.lines[3]).toMatch(/^bm25\+ltr .*REGRESSION$/);
    const unrecorded = gateVerdict('scifact', { ...LEARNED, ndcgAt10: BASELINE.ndcgAt10 }, measured);
    expect(unrecorded.passed).toBe(false);
    expect(unrecorded.lines[3]).toMatch(/^bm25\+ltr .*NO BASELINE/);
  });

  it('fits on a seeded subset of the train split that shares no query with the gated one', () => {
    const train = split('train', { t1: 'claim one', t2: 'claim two', t3: 'claim three', t4: 'unjudged' });
    const gated = split('test', { g1: 'claim four', g2: 'claim five', g3: 'claim six', g4: 'other' });
    const subset = gateFitSubset(train, gated, FIT);
    expect([...subset.queries.keys()]).toEqual(['t1', 't2']);
    expect([...subset.corpus.keys()].sort()).toHaveLength(3);
    expect(gateFitSubset(train, gated, FIT)).toEqual(subset);
    // The same id, or the same claim under another id, is refused.
    const sameId = split('test', { t2: 'claim four', g2: 'claim five', g3: 'claim six', g4: 'other' });
    expect(() => gateFitSubset(train, sameId, FIT)).toThrow(/shares 1 queries .*\(t2\)/);
    const sameText = split('test', { g1: 'claim one', g2: 'claim five', g3: 'claim six', g4: 'other' });
    expect(() => gateFitSubset(train, sameText, FIT)).toThrow(/\(t1\)/);
  });

  it("fits with the learner's defaults and the baseline's l2", () => {
    const source = { version: 'scifact-gate', source: 'scifact:train', candidateDepth: 30 };
    const spec = gateFitSpec({ ...FIT, l2: 0.1 }, source);
    expect(spec).toMatchObject({ learner: 'linear', objective: 'ranknet', options: { ...source, l2: 0.1 } });
    expect(gateFitSpec({ ...FIT, l2: undefined }, source).options).toMatchObject({ l2: 1, seed: 1 });
    expect(() => gateFitSpec({ ...FIT, learner: 'lambdamart', l2: 1 }, source)).toThrow(/linear/);
    expect(gateFitSpec({ ...FIT, learner: 'lambdamart', l2: undefined }, source).learner).toBe('lambdamart');
  });

  it('prints the fitted weights, most first, and the paired comparison with BM25', () => {
    const weights = LTR_FEATURES.map((_, i) => (i === 2 ? -0.5 : i === 0 ? 0.25 : 0));
    const model = {
      version: 'scifact-gate',
      features: [...LTR_FEATURES],
      weights,
      training: { source: 'scifact:train', queries: 188, pairs: 9580, candidateDepth: 30 },
    } as unknown as LtrModel;
    const comparison: ReportComparison = {
      queries: 100,
      comparisons: [
        {
          metric: 'ndcg@10',
          a: 0.864,
          b: 0.8626,
          difference: -0.0014,
          test: 'paired-randomization',
          pValue: 0.8235,
          adjustedPValue: 1,
        },
      ],
    };
    const lines = formatGateFit(model, comparison, 258.04);
    expect(lines[0]).toBe(
      'learned reranker scifact-gate: fitted on 188 queries of scifact:train, 9580 pairs, in 258.0 s ' +
        '(reading the features included)',
    );
    expect(lines[1]).toBe(`  ${LTR_FEATURES[2].padEnd(28)} -0.5000`);
    expect(lines[2]).toBe(`  ${LTR_FEATURES[0].padEnd(28)} 0.2500`);
    expect(lines.at(-1)).toBe(
      'bm25+ltr vs bm25 over the same 30 candidates, 100 paired queries: nDCG@10 0.8640 → 0.8626 ' +
        '(-0.0014, paired randomisation p = 0.8235)',
    );
  });

  it('runs each retrieval ranker, then BM25 over candidateK as it is and reranked by the fitted model', () => {
    expect(gateRuns(BASELINE, null, 30)).toEqual([
      { ranker: 'bm25', expansion: false, hyde: false },
      { ranker: 'hybrid', expansion: false, hyde: false },
    ]);
    const model = { version: 'scifact-gate' } as unknown as LtrModel;
    expect(gateRuns(LEARNED, model, 30)).toEqual([
      { ranker: 'bm25', expansion: false, hyde: false },
      { ranker: 'hybrid', expansion: false, hyde: false },
      { ranker: 'bm25', expansion: false, hyde: false, topK: 30, candidateK: 30 },
      {
        ranker: 'bm25',
        expansion: false,
        hyde: false,
        topK: 30,
        candidateK: 30,
        rerank: true,
        rerankModel: model,
      },
    ]);
  });

  it("measures each ranker's nDCG@10 and prints each report, then the fit's comparison", () => {
    /** A report of two queries whose nDCG@10 are `values` (every other metric 0). */
    const report = (ranker: string, values: [number, number]): RetrievalReport => {
      const metrics = (ndcg: number) =>
        Object.fromEntries(
          REPORT_METRICS.map((m) => [m, m === 'ndcg@10' ? ndcg : 0]),
        ) as RetrievalReport['metrics'];
      return {
        suite: 'retrieval',
        dataset: 'scifact',
        split: 'test',
        ranker,
        settings: {},
        queries: 2,
        metrics: metrics((values[0] + values[1]) / 2),
        intervals: Object.fromEntries(
          REPORT_METRICS.map((m) => [m, { low: 0, high: 1, method: 'bootstrap' }]),
        ) as RetrievalReport['intervals'],
        timings: {},
        perQuery: values.map((v, i) => ({
          queryId: `q${i}`,
          metrics: metrics(v),
          firstRelevantRank: 1,
          relevantCount: 1,
          ranking: [],
        })),
      };
    };
    const reports = [report('bm25', [0.5, 0.7]), report('hybrid', [0.6, 0.8])];
    const plain = gateMeasurements(BASELINE, reports, null);
    expect([...plain.measured]).toEqual([
      ['bm25', 0.6],
      ['hybrid', 0.7],
    ]);
    expect(plain.blocks).toEqual(reports.map(formatReport));

    const model = {
      version: 'scifact-gate',
      features: [...LTR_FEATURES],
      weights: LTR_FEATURES.map((_, i) => (i === 0 ? 1 : 0)),
      training: { source: 'scifact:train', queries: 2, pairs: 3, candidateDepth: 30 },
    } as unknown as LtrModel;
    const learned = [...reports, report('bm25', [0.5, 0.7]), report('bm25', [0.5, 0.9])];
    const withFit = gateMeasurements(LEARNED, learned, { model, seconds: 12.34 });
    expect(withFit.measured.get('bm25+ltr')).toBeCloseTo(0.7, 10);
    expect(withFit.blocks).toHaveLength(4);
    expect(withFit.blocks[2]).toBe(formatReport(learned[3]));
    const fitLines = withFit.blocks[3].split('\n');
    expect(fitLines[0]).toBe(
      'learned reranker scifact-gate: fitted on 2 queries of scifact:train, 3 pairs, in 12.3 s ' +
        '(reading the features included)',
    );
    expect(fitLines.at(-1)).toBe(
      'bm25+ltr vs bm25 over the same 30 candidates, 2 paired queries: nDCG@10 0.6000 → 0.7000 ' +
        '(+0.1000, paired randomisation p = 1.0000)',
    );
  });
});

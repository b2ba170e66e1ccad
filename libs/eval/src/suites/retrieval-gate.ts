import type { LearnedRankingModel } from '@lumina/rag';
import type { BeirDataset } from '../datasets';
import { beirSubset } from '../datasets';
import { defaultFitSpec } from '../rerank/fit-ranking-model';
import type { RankingFitSource, RankingFitSpec, RankingLearner } from '../rerank/fit-ranking-model';
import { formatImportance } from '../rerank/ranking-fit-report';
import { compareReports } from '../runner/compare-reports';
import type { ReportComparison } from '../runner/compare-reports';
import { formatReport } from '../runner/format-report';
import { round4, signed4 } from '../stats/figures';
import type { RetrievalReport } from '../runner/retrieval-report';

/**
 * The rankers a retrieval gate can hold to a baseline: BM25, hybrid, and BM25 reordered by the learned
 * reranker the gate fits itself (`bm25+ltr`, only with the baseline's `fit`).
 */
export type GateRanker = 'bm25' | 'hybrid' | 'bm25+ltr';

/** The ranker a gate measures with the reranker it fitted. */
export const LEARNED_GATE_RANKER = 'bm25+ltr' as const;

/** A seeded BEIR subset: the first N judged queries, all their judged documents, seeded distractors. */
export interface GateSubset {
  queries: number;
  distractors: number;
  seed: number;
}

/**
 * How a gate fits its learned reranker: on a seeded subset of another split (train; never the queries it
 * is gated on), with this learner, its L2 penalty and, with `dense`, the embedder's cosine features.
 */
export interface GateFit {
  split: string;
  subset: GateSubset;
  learner: RankingLearner;
  /** The linear learner's L2 penalty (default: the learner's). */
  l2?: number;
  dense: boolean;
}

/**
 * A committed retrieval gate: a fixed subset of a BEIR dataset (N test queries, all their judged
 * documents, seeded distractors), the chunking it is indexed with, and the nDCG@10 each ranker must keep
 * (minus the tolerance). With `fit`, the gate also fits the learned reranker and holds `bm25+ltr`.
 */
export interface GateBaseline {
  dataset: string;
  /** The split the gated queries come from (default test; NFCorpus gates on dev, its test split is held out). */
  split?: string;
  subset: GateSubset;
  chunking: { unit: 'chunk'; maxChars: number; overlapChars: number };
  tolerance: number;
  fit?: GateFit;
  /**
   * The in-process embedder the figures were measured with (an EMBEDDINGS_PROVIDER value): the gate runs
   * with it whatever the environment says, so a machine's default cannot move a floor. Default `local`.
   */
  embedder?: GateEmbedder;
  ndcgAt10: Partial<Record<GateRanker, number>>;
}

/** The embedders a gate can name: the ones that run in process, with no endpoint. */
export type GateEmbedder = 'local' | 'minilm' | 'hash';

/** The rankers the baseline names, BM25 first, then the learned one whenever the baseline fits it. */
export function gateRankers(baseline: GateBaseline): GateRanker[] {
  const retrieval = (['bm25', 'hybrid'] as const).filter((ranker) => baseline.ndcgAt10[ranker] !== undefined);
  return baseline.fit ? [...retrieval, LEARNED_GATE_RANKER] : retrieval;
}

/** The retrieval runs of the gate (the rankers without the learned reranker). */
export function gateRetrievalRankers(baseline: GateBaseline): ('bm25' | 'hybrid')[] {
  return gateRankers(baseline).filter((ranker) => ranker !== LEARNED_GATE_RANKER);
}

/** The baseline with the measured nDCG@10 of each ranker, to four decimals. */
export function updatedGateBaseline(
  baseline: GateBaseline,
  measured: ReadonlyMap<GateRanker, number>,
): GateBaseline {
  return {
    ...baseline,
    ndcgAt10: Object.fromEntries(
      gateRankers(baseline).map((ranker) => {
        const value = measured.get(ranker);
        if (value === undefined) throw new Error(`no measurement of ${ranker} to record`);
        return [ranker, round4(value)];
      }),
    ),
  };
}

/**
 * Each ranker's measurement against its floor: passed when none fell below (a ranker the baseline has no
 * figure for yet fails: record one with --update-baseline), and the table to print.
 */
export function gateVerdict(
  datasetName: string,
  baseline: GateBaseline,
  measured: ReadonlyMap<GateRanker, number>,
): { passed: boolean; lines: string[] } {
  let passed = true;
  const lines = [`gate ${datasetName}\nranker     measured  baseline  floor     verdict`];
  for (const ranker of gateRankers(baseline)) {
    const expected = baseline.ndcgAt10[ranker];
    const value = measured.get(ranker);
    if (expected === undefined || value === undefined) {
      passed = false;
      lines.push(
        `${ranker.padEnd(10)} ${value === undefined ? 'missing ' : `${value.toFixed(4)}  `}  ` +
          `${expected === undefined ? 'none    ' : `${expected.toFixed(4)}  `}  ` +
          `${' '.repeat(6)}    ${expected === undefined ? 'NO BASELINE (--update-baseline)' : 'NOT MEASURED'}`,
      );
      continue;
    }
    const floor = expected - baseline.tolerance;
    const ok = value >= floor;
    passed &&= ok;
    lines.push(
      `${ranker.padEnd(10)} ${value.toFixed(4)}    ${expected.toFixed(4)}    ` +
        `${floor.toFixed(4)}    ${ok ? 'ok' : 'REGRESSION'}`,
    );
  }
  return { passed, lines };
}

/**
 * The subset the gate fits its reranker on: the fit's seeded subset of the other split. Throws when it
 * shares a query with the gated subset, by id or by text (the fit must never see a query it is measured on).
 */
export function gateFitSubset(
  split: BeirDataset,
  gated: Pick<BeirDataset, 'queries'>,
  fit: GateFit,
): BeirDataset {
  const subset = beirSubset(split, fit.subset);
  // By id, and by text: a claim can appear in both splits under two ids.
  const gatedTexts = new Set(gated.queries.values());
  const shared = [...subset.queries].filter(([id, text]) => gated.queries.has(id) || gatedTexts.has(text));
  if (shared.length > 0) {
    throw new Error(
      `the ${fit.split} subset shares ${shared.length} queries with the gated subset ` +
        `(${shared
          .slice(0, 5)
          .map(([id]) => id)
          .join(', ')}): the reranker must not be fitted on the queries it is gated on`,
    );
  }
  return subset;
}

/** The fit spec of the baseline's `fit`: the learner's defaults, with the baseline's L2 for the linear one. */
export function gateFitSpec(fit: GateFit, source: RankingFitSource): RankingFitSpec {
  const spec = defaultFitSpec(source, fit.learner);
  if (fit.l2 === undefined) return spec;
  if (spec.learner !== 'linear') throw new Error(`l2 is an option of the linear learner, not ${fit.learner}`);
  return { ...spec, options: { ...spec.options, l2: fit.l2 } };
}

/**
 * What the gate prints about the reranker it fitted: what it was fitted on, its weights (most first), and
 * the paired nDCG@10 comparison with BM25 over the same candidates on the gated queries.
 */
export function formatGateFit(
  model: LearnedRankingModel,
  comparison: ReportComparison,
  fitSeconds: number,
): string[] {
  const ndcg = comparison.comparisons.find((c) => c.metric === 'ndcg@10');
  if (!ndcg) throw new Error('the comparison has no nDCG@10');
  return [
    `learned reranker ${model.version}: fitted on ${model.training.queries} queries of ${model.training.source}, ` +
      `${model.training.pairs} pairs, in ${fitSeconds.toFixed(1)} s (reading the features included)`,
    ...formatImportance(model).map((line) => `  ${line}`),
    `bm25+ltr vs bm25 over the same ${model.training.candidateDepth} candidates, ${comparison.queries} paired queries: ` +
      `nDCG@10 ${ndcg.a.toFixed(4)} → ${ndcg.b.toFixed(4)} (${signed4(ndcg.difference)}, ` +
      `paired randomisation p = ${ndcg.pValue.toFixed(4)})`,
  ];
}

/** One retrieval run of a gate, as the retrieval suite takes it (no expansion, no HyDE). */
export interface GateRun {
  ranker: 'bm25' | 'hybrid';
  expansion: false;
  hyde: false;
  topK?: number;
  candidateK?: number;
  rerank?: boolean;
  rerankModel?: LearnedRankingModel;
}

/**
 * The gate's runs: one per retrieval ranker the baseline names, then, with a fitted reranker, BM25 over
 * the app's candidateK candidates as they are and reranked by it (as the app reranks).
 */
export function gateRuns(
  baseline: GateBaseline,
  fitted: LearnedRankingModel | null,
  candidateK: number,
): GateRun[] {
  const runs: GateRun[] = gateRetrievalRankers(baseline).map((ranker) => ({
    ranker,
    expansion: false,
    hyde: false,
  }));
  if (!fitted) return runs;
  const sameDepth: GateRun = { ranker: 'bm25', expansion: false, hyde: false, topK: candidateK, candidateK };
  return [...runs, sameDepth, { ...sameDepth, rerank: true, rerankModel: fitted }];
}

/** The reranker a gate fitted, and how long the fit took (reading the features included). */
export interface GateFitted {
  model: LearnedRankingModel;
  seconds: number;
}

/**
 * What the gate's runs (in gateRuns' order) measured: each ranker's nDCG@10, and the blocks to print: each
 * retrieval run's report, then the learned run's and what its fit printed (see formatGateFit).
 */
export function gateMeasurements(
  baseline: GateBaseline,
  reports: readonly RetrievalReport[],
  fitted: GateFitted | null,
): { measured: Map<GateRanker, number>; blocks: string[] } {
  const rankers = gateRetrievalRankers(baseline);
  const measured = new Map<GateRanker, number>(
    rankers.map((ranker, i) => [ranker, reports[i].metrics['ndcg@10']]),
  );
  const blocks = reports.slice(0, rankers.length).map(formatReport);
  if (fitted) {
    const [bm25, learned] = reports.slice(rankers.length);
    measured.set(LEARNED_GATE_RANKER, learned.metrics['ndcg@10']);
    blocks.push(
      formatReport(learned),
      formatGateFit(fitted.model, compareReports(bm25, learned), fitted.seconds).join('\n'),
    );
  }
  return { measured, blocks };
}

import type { EvalFlip, EvalItemResult, EvalRunComparison } from '@lumina/shared';
import { compareReports } from '../runner/compare-reports';
import { REPORT_METRICS } from '../runner/retrieval-report';
import type { RetrievalReport } from '../runner/retrieval-report';

export interface ComparableRun {
  id: string;
  bankId: string;
  datasetHash: string | null;
  metrics: Record<string, number>;
  perItem: EvalItemResult[];
}

/**
 * Paired comparison of two bank runs over the items both scored, with the eval command's statistics
 * (compareReports: exact McNemar for hit rates, paired randomisation otherwise, Holm-adjusted), the
 * items whose hits flipped, and the out-of-scope items whose refusal flipped.
 */
export function compareEvalRuns(a: ComparableRun, b: ComparableRun): EvalRunComparison {
  const scoredA = a.perItem.filter((item) => item.inScope && item.skippedReason === null);
  const scoredB = new Map(
    b.perItem
      .filter((item) => item.inScope && item.skippedReason === null)
      .map((item) => [item.itemId, item]),
  );
  const paired = scoredA.filter((item) => scoredB.has(item.itemId));
  if (paired.length === 0) throw new Error('the two runs have no scored item in common');

  const comparison = compareReports(
    asReport(a, paired),
    asReport(
      b,
      paired.map((item) => scoredB.get(item.itemId)!),
    ),
  );
  const flips: EvalRunComparison['flips'] = {};
  for (const metric of REPORT_METRICS.filter((key) => key.startsWith('hit@'))) {
    const onlyA: EvalFlip[] = [];
    const onlyB: EvalFlip[] = [];
    for (const item of paired) {
      const hitA = (item.metrics[metric] ?? 0) > 0;
      const hitB = (scoredB.get(item.itemId)!.metrics[metric] ?? 0) > 0;
      if (hitA && !hitB) onlyA.push({ itemId: item.itemId, question: item.question });
      if (!hitA && hitB) onlyB.push({ itemId: item.itemId, question: item.question });
    }
    flips[metric] = { onlyA, onlyB };
  }

  const outA = a.perItem.filter((item) => !item.inScope);
  const outB = new Map(b.perItem.filter((item) => !item.inScope).map((item) => [item.itemId, item]));
  const refusalFlips: EvalRunComparison['refusalFlips'] = { onlyA: [], onlyB: [] };
  for (const item of outA) {
    const other = outB.get(item.itemId);
    if (!other || item.refused === other.refused) continue;
    (item.refused ? refusalFlips.onlyA : refusalFlips.onlyB).push({
      itemId: item.itemId,
      question: item.question,
    });
  }

  const warnings: string[] = [];
  if (a.bankId !== b.bankId)
    warnings.push('the runs evaluated different question banks; only shared items are paired');
  else if (a.datasetHash !== b.datasetHash)
    warnings.push(`the bank changed between the runs; compared on the ${paired.length} items both scored`);
  return {
    a: a.id,
    b: b.id,
    pairedItems: comparison.queries,
    comparisons: comparison.comparisons.map((c) => ({
      metric: c.metric,
      a: c.a,
      b: c.b,
      difference: c.difference,
      test: c.test,
      pValue: c.pValue,
      adjustedPValue: c.adjustedPValue,
    })),
    flips,
    refusalFlips,
    warnings,
  };
}

function asReport(run: ComparableRun, items: EvalItemResult[]): RetrievalReport {
  return {
    suite: 'retrieval',
    dataset: `question-bank:${run.bankId}`,
    split: 'bank',
    ranker: '',
    settings: {},
    queries: items.length,
    metrics: run.metrics as RetrievalReport['metrics'],
    intervals: {} as RetrievalReport['intervals'],
    timings: {},
    perQuery: items.map((item) => ({
      queryId: item.itemId,
      metrics: item.metrics,
      firstRelevantRank: item.firstRelevantRank,
      relevantCount: 0,
      ranking: item.ranking,
    })),
  };
}

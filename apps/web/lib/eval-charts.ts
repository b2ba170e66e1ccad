import type { EvalRun, EvalRunComparison, EvalRunSummary } from '@lumina/shared';

export interface MetricPoint {
  runId: string;
  /** Short time label for the axis. */
  label: string;
  time: number;
  value: number;
  bankId: string;
}

/**
 * Completed runs' value of `metric`, oldest first: the points of "metric per run over time". Labels are
 * the minute ("01-01 10:00"); runs that share a minute get the seconds, and runs that share a second
 * the start of their id, so no two points have the same label.
 */
export function metricSeries(runs: readonly EvalRunSummary[], metric: string): MetricPoint[] {
  const points = runs
    .filter((run) => run.status === 'completed' && run.metrics && typeof run.metrics[metric] === 'number')
    .map((run) => {
      const time = Date.parse(run.finishedAt ?? run.createdAt);
      return {
        runId: run.id,
        time,
        label: Number.isFinite(time) ? timeLabel(time, 16) : run.id.slice(0, 8),
        value: run.metrics![metric],
        bankId: run.bankId,
      };
    })
    .sort((a, b) => a.time - b.time);
  const withSeconds = relabel(points, (point) =>
    Number.isFinite(point.time) ? timeLabel(point.time, 19) : point.label,
  );
  return relabel(withSeconds, (point) => `${point.label} · ${point.runId.slice(0, 6)}`);
}

function timeLabel(time: number, end: 16 | 19): string {
  return new Date(time).toISOString().slice(5, end).replace('T', ' ');
}

/** Points whose label another point shares get `better(point)`. */
function relabel(points: MetricPoint[], better: (point: MetricPoint) => string): MetricPoint[] {
  const counts = new Map<string, number>();
  for (const point of points) counts.set(point.label, (counts.get(point.label) ?? 0) + 1);
  return points.map((point) => (counts.get(point.label)! > 1 ? { ...point, label: better(point) } : point));
}

const PREFERRED = ['ndcg@10', 'mrr@10', 'hit@1', 'hit@5', 'recall@100'];

/** Every metric the runs report, the usual headline ones first. */
export function metricNames(runs: readonly EvalRunSummary[]): string[] {
  const names = new Set<string>();
  for (const run of runs) for (const key of Object.keys(run.metrics ?? {})) names.add(key);
  const lowerPreferred = PREFERRED.map((name) => name.toLowerCase());
  return [...names].sort((a, b) => {
    const ia = lowerPreferred.indexOf(a.toLowerCase());
    const ib = lowerPreferred.indexOf(b.toLowerCase());
    if (ia !== -1 || ib !== -1) return (ia === -1 ? 99 : ia) - (ib === -1 ? 99 : ib);
    return a.localeCompare(b);
  });
}

export type Flip = 'onlyA' | 'onlyB' | null;

export interface ItemComparisonRow {
  itemId: string;
  /** "Q1", "Q2", … in the order of run A. */
  label: string;
  question: string;
  /** Reciprocal rank of the first relevant passage (0 when none was found). */
  a: number;
  b: number;
  rankA: number | null;
  rankB: number | null;
  flip: Flip;
}

/** The hit metric whose flips are shown: the comparison's first, preferring hit@1. */
export function flipMetric(comparison: EvalRunComparison): string | null {
  const keys = Object.keys(comparison.flips ?? {});
  return keys.find((key) => key.toLowerCase() === 'hit@1') ?? keys[0] ?? null;
}

/** Items scored in both runs, side by side, marked with the way they flipped on `metric`. */
export function compareItems(
  a: Pick<EvalRun, 'perItem'>,
  b: Pick<EvalRun, 'perItem'>,
  comparison: EvalRunComparison | null,
  metric: string | null,
): ItemComparisonRow[] {
  const flips = metric && comparison?.flips?.[metric];
  const onlyA = new Set((flips ? flips.onlyA : []).map((flip) => flip.itemId));
  const onlyB = new Set((flips ? flips.onlyB : []).map((flip) => flip.itemId));
  const inB = new Map(b.perItem.map((item) => [item.itemId, item]));
  const rows: ItemComparisonRow[] = [];
  for (const itemA of a.perItem) {
    const itemB = inB.get(itemA.itemId);
    if (!itemB || itemA.skippedReason || itemB.skippedReason) continue;
    rows.push({
      itemId: itemA.itemId,
      label: `Q${rows.length + 1}`,
      question: itemA.question,
      a: itemA.firstRelevantRank ? 1 / itemA.firstRelevantRank : 0,
      b: itemB.firstRelevantRank ? 1 / itemB.firstRelevantRank : 0,
      rankA: itemA.firstRelevantRank,
      rankB: itemB.firstRelevantRank,
      flip: onlyA.has(itemA.itemId) ? 'onlyA' : onlyB.has(itemA.itemId) ? 'onlyB' : null,
    });
  }
  return rows;
}

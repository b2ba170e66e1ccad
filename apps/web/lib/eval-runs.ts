import type { SearchSettings } from '@lumina/shared';

interface TimedRun {
  id: string;
  createdAt: string;
  finishedAt?: string | null;
}

function timeOf(run: TimedRun): number {
  return Date.parse(run.finishedAt ?? run.createdAt);
}

/** "2026-12-03 17:45" (`seconds`: "2026-12-03 17:45:09"). */
export function runTime(iso: string | null | undefined, seconds = false): string {
  if (!iso) return '—';
  const time = Date.parse(iso);
  if (!Number.isFinite(time)) return '—';
  return new Date(time)
    .toISOString()
    .replace('T', ' ')
    .slice(0, seconds ? 19 : 16);
}

/**
 * A label per run that no other run in the list shares: its time to the minute; with the seconds when
 * another run finished in the same minute; with the start of its id when another finished in the same
 * second.
 */
export function runLabels(runs: readonly TimedRun[]): Map<string, string> {
  const minute = (run: TimedRun) => runTime(run.finishedAt ?? run.createdAt);
  const second = (run: TimedRun) => runTime(run.finishedAt ?? run.createdAt, true);
  const count = (key: (run: TimedRun) => string) => {
    const counts = new Map<string, number>();
    for (const run of runs) counts.set(key(run), (counts.get(key(run)) ?? 0) + 1);
    return counts;
  };
  const minutes = count(minute);
  const seconds = count(second);
  return new Map(
    runs.map((run) => {
      if (!Number.isFinite(timeOf(run))) return [run.id, `run ${run.id.slice(0, 8)}`];
      if ((minutes.get(minute(run)) ?? 0) < 2) return [run.id, minute(run)];
      if ((seconds.get(second(run)) ?? 0) < 2) return [run.id, second(run)];
      return [run.id, `${second(run)} · ${run.id.slice(0, 6)}`];
    }),
  );
}

const RANKERS: Record<string, string> = {
  bm25: 'BM25 (keywords)',
  dense: 'Dense (embeddings)',
  hybrid: 'Hybrid (BM25 + dense, fused)',
};

function mode(value: SearchSettings['enableHyDE'], on: string): string {
  if (value === 'adaptive') return `adaptive (${on} when it measured better)`;
  return value ? on : 'off';
}

/** The settings a run searched with, as label and value rows a person reads. */
export function settingsFacts(settings: SearchSettings): { label: string; value: string }[] {
  return [
    { label: 'Ranker', value: RANKERS[settings.ranker] ?? settings.ranker },
    { label: 'Passages', value: `top ${settings.topK} of ${settings.candidateK} candidates per branch` },
    {
      label: 'Query expansion',
      value: mode(settings.enableQueryExpansion, `on, ${settings.expansionCount} variants`),
    },
    { label: 'HyDE', value: mode(settings.enableHyDE, 'on') },
    { label: 'Reranking', value: settings.enableRerank ? 'on' : 'off' },
    { label: 'Minimum score', value: settings.minScore > 0 ? settings.minScore.toFixed(2) : 'none' },
    {
      label: 'Documents',
      value:
        settings.documentIds.length === 0
          ? 'all'
          : `${settings.documentIds.length} chosen document${settings.documentIds.length === 1 ? '' : 's'}`,
    },
  ];
}

/**
 * What a retrieval metric means, in a sentence (hit@k, MRR@k, nDCG@k, recall@k, precision@k); null for
 * a metric this does not know.
 */
export function explainMetric(name: string): string | null {
  const match = /^([a-z]+)@(\d+)$/i.exec(name.trim());
  if (!match) return null;
  const [, kind, k] = match;
  switch (kind.toLowerCase()) {
    case 'hit':
      return k === '1'
        ? 'Share of questions whose first result is an expected source.'
        : `Share of questions with an expected source among the first ${k} results.`;
    case 'mrr':
      return `Mean reciprocal rank: 1 when the first expected source is ranked first, ½ when second, ⅓ when third… (0 when none is in the first ${k}), averaged over the questions.`;
    case 'ndcg':
      return `Normalised discounted cumulative gain: every expected source in the first ${k} counts, more near the top and more when graded more relevant; 1 is the best possible order.`;
    case 'recall':
      return `Share of a question's expected sources found in the first ${k} results, averaged over the questions.`;
    case 'precision':
      return `Share of the first ${k} results that are expected sources, averaged over the questions.`;
    default:
      return null;
  }
}

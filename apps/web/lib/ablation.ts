import type { Ablation, AblationRow, AblationSwitches } from '@lumina/shared';

export interface AblationChartPoint {
  /** '#3', or '#3 ★' for the best combination. */
  axis: string;
  label: string;
  ndcg: number;
  mrr: number;
  best: boolean;
}

/** The completed rows as chart points, numbered as the matrix numbers them (1-based, in matrix order). */
export function ablationChartData(ablation: Pick<Ablation, 'rows' | 'bestRunId'>): AblationChartPoint[] {
  return ablation.rows.flatMap((row, index) => {
    if (!row.figures) return [];
    const best = row.runId === ablation.bestRunId;
    return [
      {
        axis: `#${index + 1}${best ? ' ★' : ''}`,
        label: row.label,
        ndcg: row.figures['ndcg@10'],
        mrr: row.figures['mrr@10'],
        best,
      },
    ];
  });
}

/** What "Use these settings" writes into the settings drawer: exactly the four switches of the row. */
export function switchesAsOverrides(switches: AblationSwitches): AblationSwitches {
  return {
    ranker: switches.ranker,
    enableQueryExpansion: switches.enableQueryExpansion,
    enableHyDE: switches.enableHyDE,
    enableRerank: switches.enableRerank,
  };
}

/** Whether the ablation is still working (poll it). */
export function ablationActive(ablation: Pick<Ablation, 'status'> | null): boolean {
  return ablation !== null && (ablation.status === 'queued' || ablation.status === 'running');
}

/** A rate as a percentage with no decimals, or a dash. */
export function formatRate(value: number | null): string {
  return value === null ? '—' : `${Math.round(value * 100)}%`;
}

export function bestRow(ablation: Pick<Ablation, 'rows' | 'bestRunId'>): AblationRow | null {
  return ablation.rows.find((row) => row.runId === ablation.bestRunId) ?? null;
}

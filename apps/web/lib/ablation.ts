import type {
  Ablation,
  AblationRow,
  AblationSwitches,
  BankEnhancementWarnings,
  Enhancement,
} from '@lumina/shared';
import { formatMetric } from './format';

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

const ENHANCEMENT_NAMES: Record<Enhancement, string> = {
  expansion: 'query expansion',
  hyde: 'HyDE',
  rerank: 'rerank',
};

/**
 * The settings drawer's warning for one enhancement: a sentence per bank whose latest ablation measured
 * it worse than off, with both nDCG@10 figures, e.g. 'On "Docs", bm25 + HyDE (PRF) scored nDCG@10
 * 0.658 against 0.813 for bm25 alone.'
 */
export function enhancementWarningSentences(
  banks: readonly BankEnhancementWarnings[],
  enhancement: Enhancement,
): string[] {
  return banks.flatMap((bank) =>
    bank.worse
      .filter((item) => item.enhancement === enhancement)
      .map((item) => {
        const written = enhancement !== 'rerank' && bank.generator === 'prf' ? ' (PRF)' : '';
        return (
          `On “${bank.bankName}”, ${item.ranker} + ${ENHANCEMENT_NAMES[enhancement]}${written} scored ` +
          `nDCG@10 ${formatMetric(item.on)} against ${formatMetric(item.off)} for ${item.ranker} alone.`
        );
      }),
  );
}

import type {
  AblationFigures,
  AblationGenerator,
  AblationRow,
  AblationSwitches,
  AnswerMetrics,
  Enhancement,
  EnhancementMeasuredWorse,
  RefusalRates,
} from '@lumina/shared';
import { RANKERS } from '@lumina/shared';
import type { SearchResult } from '@lumina/rag';

/**
 * Every combination an ablation runs: each ranker × expansion off/on × HyDE off/on × rerank off/on,
 * rerank only when a reranker is configured. Ordered from the cheapest (bm25, nothing on) up.
 */
export function ablationCombinations(options: { rerankAvailable: boolean }): AblationSwitches[] {
  const rankers = [...RANKERS].sort((a, b) => RANKER_ORDER.indexOf(a) - RANKER_ORDER.indexOf(b));
  const reranks = options.rerankAvailable ? [false, true] : [false];
  const combinations: AblationSwitches[] = [];
  for (const ranker of rankers)
    for (const enableQueryExpansion of [false, true])
      for (const enableHyDE of [false, true])
        for (const enableRerank of reranks)
          combinations.push({ ranker, enableQueryExpansion, enableHyDE, enableRerank });
  return combinations;
}

const RANKER_ORDER = ['bm25', 'dense', 'hybrid'];

/** 'hybrid · expansion (PRF) · HyDE (PRF) · rerank', or 'bm25 only' when nothing is switched on. */
export function ablationLabel(switches: AblationSwitches, generator: AblationGenerator): string {
  const written = generator === 'prf' ? ' (PRF)' : '';
  const mode = (value: boolean | 'adaptive') => (value === 'adaptive' ? ' adaptive' : '');
  const parts = [
    switches.enableQueryExpansion ? `expansion${mode(switches.enableQueryExpansion)}${written}` : null,
    switches.enableHyDE ? `HyDE${mode(switches.enableHyDE)}${written}` : null,
    switches.enableRerank ? 'rerank' : null,
  ].filter((part): part is string => part !== null);
  return parts.length ? [switches.ranker, ...parts].join(' · ') : `${switches.ranker} only`;
}

/** What a completed run's stored results say about one combination. */
export function ablationFigures(run: {
  metrics: Record<string, number> | null;
  answers: AnswerMetrics | null;
  refusal: RefusalRates | null;
  timings: Record<string, number> | null;
  llmCalls: number | null;
}): AblationFigures | null {
  if (!run.metrics) return null;
  const rate = (interval: { items: number; rate: number } | undefined) =>
    interval && interval.items > 0 ? interval.rate : null;
  const outOfScope = run.refusal?.outOfScope;
  return {
    'ndcg@10': run.metrics['ndcg@10'] ?? 0,
    'mrr@10': run.metrics['mrr@10'] ?? 0,
    support: rate(run.answers?.support),
    inScopeRefused: run.answers ? rate(run.answers.inScopeRefused) : rate(run.refusal?.inScope),
    outOfScopeAnswered: run.answers
      ? rate(run.answers.outOfScopeAnswered)
      : outOfScope && outOfScope.items > 0
        ? 1 - outOfScope.rate
        : null,
    latencyP50Ms: run.timings?.queryP50Ms ?? 0,
    llmCalls: run.llmCalls ?? 0,
  };
}

export const BEST_ABLATION_RULE =
  'Best: the highest nDCG@10; a tie goes to fewer LLM calls, then to the lower median latency.';

/** nDCG@10 values this close are a tie (they differ only in floating-point noise). */
const TIE = 1e-9;

/** The best completed row by BEST_ABLATION_RULE (the first listed wins a full tie); null when none completed. */
export function bestAblationRow<T extends Pick<AblationRow, 'status' | 'figures'>>(
  rows: readonly T[],
): T | null {
  let best: (T & { figures: AblationFigures }) | null = null;
  for (const row of rows) {
    if (row.status !== 'completed' || !row.figures) continue;
    const candidate = row as T & { figures: AblationFigures };
    if (!best || beats(candidate.figures, best.figures)) best = candidate;
  }
  return best;
}

function beats(a: AblationFigures, b: AblationFigures): boolean {
  const ndcg = a['ndcg@10'] - b['ndcg@10'];
  if (Math.abs(ndcg) > TIE) return ndcg > 0;
  if (a.llmCalls !== b.llmCalls) return a.llmCalls < b.llmCalls;
  return a.latencyP50Ms < b.latencyP50Ms;
}

const ENHANCEMENT_SWITCH: Record<Enhancement, keyof Omit<AblationSwitches, 'ranker'>> = {
  expansion: 'enableQueryExpansion',
  hyde: 'enableHyDE',
  rerank: 'enableRerank',
};

/**
 * The enhancements the ablation measured worse than off: for each ranker and enhancement, the completed
 * combination with only that enhancement switched on (`true`, not adaptive) against the ranker alone,
 * when its nDCG@10 is lower (beyond floating-point noise). Ordered as the rows are.
 */
export function enhancementsWorseThanOff(
  rows: readonly Pick<AblationRow, 'runId' | 'switches' | 'status' | 'figures'>[],
): EnhancementMeasuredWorse[] {
  const done = rows.filter(
    (row): row is typeof row & { figures: AblationFigures } => row.status === 'completed' && !!row.figures,
  );
  const only = (row: (typeof done)[number], enhancement: Enhancement | null) =>
    (Object.entries(ENHANCEMENT_SWITCH) as [Enhancement, keyof AblationSwitches][]).every(
      ([name, key]) => row.switches[key] === (name === enhancement),
    );
  const worse: EnhancementMeasuredWorse[] = [];
  for (const on of done) {
    const enhancement = (Object.keys(ENHANCEMENT_SWITCH) as Enhancement[]).find((e) => only(on, e));
    if (!enhancement) continue;
    const off = done.find((row) => row.switches.ranker === on.switches.ranker && only(row, null));
    if (!off || on.figures['ndcg@10'] >= off.figures['ndcg@10'] - TIE) continue;
    worse.push({
      enhancement,
      ranker: on.switches.ranker,
      off: off.figures['ndcg@10'],
      offRunId: off.runId,
      on: on.figures['ndcg@10'],
      onRunId: on.runId,
    });
  }
  return worse;
}

/**
 * The model calls one search made, read from its trace: an LLM expansion and an LLM HyDE passage are
 * one call each (attempted, even when they failed), and a reranking is one when the reranker is a
 * model (a /v1/rerank endpoint or the chat model; the learned reranker calls none) and there were
 * passages to rerank. PRF calls none.
 */
export function searchLlmCalls(result: SearchResult, rerankerCallsModel: boolean): number {
  const branches = result.timings.perBranch;
  let calls = 0;
  if ('llm:expansion' in branches) calls++;
  if ('llm:hyde' in branches) calls++;
  // The listwise reranker makes no call when there is nothing to rerank: count a reranking that
  // marked the passages, or one that failed (the call was made, or at least attempted).
  if (
    rerankerCallsModel &&
    result.settings.enableRerank &&
    (result.results.some((hit) => hit.rerank) ||
      result.warnings.some((warning) => warning.startsWith('Reranking failed')))
  )
    calls++;
  return calls;
}

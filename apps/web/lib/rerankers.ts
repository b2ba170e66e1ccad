import type { ActiveReranker, RerankerMeasurement, RerankerModelSummary } from '@lumina/shared';
import { formatMetric, plural } from './format';

/** Whether any of the models is still waiting or being fitted (poll them). */
export function rerankersBusy(models: readonly Pick<RerankerModelSummary, 'status'>[]): boolean {
  return models.some((model) => model.status === 'queued' || model.status === 'fitting');
}

/** The status as a word for the list. */
export function rerankerStatusWord(status: RerankerModelSummary['status']): string {
  switch (status) {
    case 'queued':
      return 'Waiting in the queue';
    case 'fitting':
      return 'Fitting';
    case 'ready':
      return 'Ready';
    case 'failed':
      return 'Failed';
  }
}

/** A difference in nDCG@10 with its sign: "+0.130", "−0.020", "±0.000". */
export function formatGain(before: number, after: number): string {
  const gain = Math.round((after - before) * 1000) / 1000;
  if (gain === 0) return '±0.000';
  return `${gain > 0 ? '+' : '−'}${Math.abs(gain).toFixed(3)}`;
}

/** A p-value as people read it: "< 0.001" when tiny, else three decimals. */
export function formatP(p: number): string {
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

/** One line on how the cross-validation was run. */
export function measurementScope(measurement: RerankerMeasurement): string {
  return (
    `${plural(measurement.folds, 'fold')}, ${plural(measurement.queries, 'question')}` +
    (measurement.groupedBySource ? ', questions about one source kept in one fold' : '')
  );
}

/**
 * The configured reranker (a /v1/rerank endpoint or the LLM) beside the learned model on the same
 * questions and candidates, or null when the server has none.
 */
export function configuredComparison(measurement: RerankerMeasurement): string | null {
  const { configured } = measurement;
  if (!configured) return null;
  const verdict =
    measurement.preferred === 'learned'
      ? 'the learned model scored higher, so it is preferred'
      : 'the configured reranker scored at least as high, so it is preferred';
  return (
    `The configured reranker (${configured.model}) reached nDCG@10 ${formatMetric(configured.ndcg)} ` +
    `against ${formatMetric(measurement.ndcgAfter)} for this model (p = ${formatP(configured.p)}, ` +
    `${plural(configured.calls, 'call')}): ${verdict}.`
  );
}

/** What serves `enableRerank` on the server now, as a sentence. */
export function activeRerankerSentence(active: ActiveReranker | null): string {
  if (!active || !active.model) return 'No reranker is in use: searches with reranking keep the fused order.';
  switch (active.source) {
    case 'fitted':
      return `Reranking now uses the fitted model ${active.model}.`;
    case 'endpoint':
      return `Reranking now uses the configured /v1/rerank endpoint (${active.model}).`;
    case 'llm':
      return `Reranking now uses the language model (${active.model}).`;
    case 'file':
      return `Reranking now uses the model file ${active.model}.`;
    case 'cross-encoder':
      return `Reranking now uses the cross-encoder ${active.model}, in process.`;
    default:
      return `Reranking now uses ${active.model}.`;
  }
}

/** Which buttons a model offers. */
export function rerankerActions(model: Pick<RerankerModelSummary, 'status' | 'active'>): {
  activate: boolean;
  deactivate: boolean;
  download: boolean;
  remove: boolean;
} {
  const ready = model.status === 'ready';
  const working = model.status === 'queued' || model.status === 'fitting';
  return {
    activate: ready && !model.active,
    deactivate: model.active,
    download: ready,
    remove: !working,
  };
}

/**
 * Why a switched-on model is not what reranks: the configured reranker measured better on its bank, so
 * the server keeps using it (null when the model serves, or is off).
 */
export function activeButNotServing(
  model: Pick<RerankerModelSummary, 'id' | 'active'>,
  active: ActiveReranker | null,
): string | null {
  if (!model.active || !active || active.rerankerId === model.id) return null;
  return (
    'Switched on, but the configured reranker measured better on this bank, so it keeps serving ' +
    'reranking; this model serves only if that reranker goes away.'
  );
}

'use client';

import type { ActiveReranker, RerankerModelSummary } from '@lumina/shared';
import { formatDateTime, formatMetric } from '../../lib/format';
import {
  activeButNotServing,
  configuredComparison,
  formatGain,
  formatP,
  measurementScope,
  rerankerActions,
  rerankerStatusWord,
} from '../../lib/rerankers';
import { ConfirmButton } from '../ui/confirm-button';
import { DataTable } from '../ui/data-table';
import './question-banks.css';

export interface RerankerListProps {
  models: RerankerModelSummary[];
  /** What serves reranking now (a switched-on model may not, when the configured reranker measured better). */
  active: ActiveReranker | null;
  busy: boolean;
  onActivate: (id: string) => void;
  onDeactivate: (id: string) => void;
  onDelete: (id: string) => Promise<void>;
  onDownload: (id: string, version: string) => void;
}

/** The bank's fitted rerankers, newest first: status, cross-validated figures, and what can be done. */
export function RerankerList({ models, active, busy, ...actions }: RerankerListProps) {
  if (models.length === 0) return <p className="field-hint">No reranker has been fitted on this bank yet.</p>;
  return (
    <DataTable
      label="Fitted rerankers"
      busy={busy}
      head={
        <>
          <th scope="col">Model</th>
          <th scope="col">Status</th>
          <th scope="col" className="numeric">
            nDCG@10 fused
          </th>
          <th scope="col" className="numeric">
            nDCG@10 reranked
          </th>
          <th scope="col" className="numeric">
            Gain
          </th>
          <th scope="col" className="numeric">
            p
          </th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </>
      }
    >
      {models.map((model) => (
        <RerankerRow key={model.id} model={model} serving={activeButNotServing(model, active)} {...actions} />
      ))}
    </DataTable>
  );
}

function RerankerRow({
  model,
  serving,
  onActivate,
  onDeactivate,
  onDelete,
  onDownload,
}: Omit<RerankerListProps, 'models' | 'active' | 'busy'> & {
  model: RerankerModelSummary;
  /** Why it is switched on but not serving, if so. */
  serving: string | null;
}) {
  const m = model.measurement;
  const comparison = m ? configuredComparison(m) : null;
  const can = rerankerActions(model);
  return (
    <tr
      data-reranker-id={model.id}
      data-status={model.status}
      data-active={model.active ? 'true' : undefined}
      aria-label={`${model.version}${model.active ? ' (active)' : ''}`}
    >
      <td>
        <span className="mono">ltr:{model.version}</span>
        {model.active ? <span className="badge active-badge">Active</span> : null}
        <small className="field-hint block-hint">
          {model.learner} · fitted {formatDateTime(model.finishedAt ?? model.createdAt)}
          {m ? ` · ${measurementScope(m)}` : ''}
          {model.training ? ` · trained on ${model.training.pairs} pairs` : ''}
        </small>
        {comparison ? (
          <small className="block-hint" data-testid="configured-comparison">
            {comparison}
          </small>
        ) : null}
        {model.note ? <small className="block-hint">{model.note}</small> : null}
        {serving ? (
          <small className="block-hint" data-testid="not-serving">
            {serving}
          </small>
        ) : null}
        {model.status === 'failed' ? (
          <p className="status-reason" role="alert">
            The fit failed: {model.error ?? 'the server did not say why.'}
          </p>
        ) : null}
      </td>
      <td>
        <span className="status-chip" data-status={model.status}>
          {rerankerStatusWord(model.status)}
        </span>
      </td>
      <td className="numeric mono">{formatMetric(m?.ndcgBefore)}</td>
      <td className="numeric mono">{formatMetric(m?.ndcgAfter)}</td>
      <td className="numeric mono">{m ? formatGain(m.ndcgBefore, m.ndcgAfter) : '—'}</td>
      <td className="numeric mono">{m ? formatP(m.p) : '—'}</td>
      <td className="actions">
        {can.activate ? (
          <button
            type="button"
            className="button button-secondary button-small"
            aria-label={`Activate ${model.version}`}
            onClick={() => onActivate(model.id)}
          >
            Activate
          </button>
        ) : null}
        {can.deactivate ? (
          <button
            type="button"
            className="button button-secondary button-small"
            aria-label={`Deactivate ${model.version}`}
            onClick={() => onDeactivate(model.id)}
          >
            Deactivate
          </button>
        ) : null}
        {can.download ? (
          <button
            type="button"
            className="button button-ghost button-small"
            aria-label={`Download ${model.version}`}
            onClick={() => onDownload(model.id, model.version)}
          >
            Download
          </button>
        ) : null}
        {can.remove ? (
          <ConfirmButton
            label="Delete"
            accessibleLabel={`Delete ${model.version}`}
            question={`Delete ${model.version}?`}
            onConfirm={() => onDelete(model.id)}
          />
        ) : null}
      </td>
    </tr>
  );
}

'use client';

import Link from 'next/link';
import { useState } from 'react';
import { useAction } from '../../hooks/use-action';
import { usePoll } from '../../hooks/use-poll';
import { useResource } from '../../hooks/use-resource';
import {
  ablationActive,
  ablationChartData,
  bestRow,
  formatRate,
  switchesAsOverrides,
} from '../../lib/ablation';
import { useApiClient } from '../../hooks/use-api-client';
import type { Ablation, AblationRow } from '@lumina/shared';
import { formatDateTime, formatMetric, plural } from '../../lib/format';
import { getEffectiveSettings, settingsStore } from '../../store/settings.store';
import { AblationChart } from '../evals/ablation-chart';
import { DataTable } from '../ui/data-table';
import { ErrorNotice } from '../ui/error-notice';
import { ProgressBar } from '../ui/progress-bar';
import './question-banks.css';

/**
 * "Run the ablation": evaluates the bank under every combination of ranker, expansion, HyDE and rerank
 * the server can run, follows the job, and shows the matrix and a chart with the best row highlighted;
 * "Use these settings" makes a combination the settings drawer's.
 */
export function BankAblation({ bankId, itemCount }: { bankId: string; itemCount: number }) {
  const api = useApiClient();
  const [ablation, setAblation] = useState<Ablation | null>(null);
  const [applied, setApplied] = useState<AblationRow | null>(null);
  const start = useAction();
  // The bank's latest ablation, shown until this page starts a new one.
  const latest = useResource(ablation === null ? `latest-ablation|${bankId}` : null, async (signal) => {
    const page = await api.listBankAblations(bankId, { page: 1, limit: 1 }, { signal });
    return page.items[0] ? api.getAblation(page.items[0].id, { signal }) : null;
  });
  const shown = ablation ?? latest.data ?? null;
  const active = ablationActive(shown);

  usePoll(active, async (signal) => {
    if (!shown) return true;
    const next = await api.getAblation(shown.id, { signal });
    setAblation(next);
    return !ablationActive(next);
  });

  const use = (row: AblationRow) => {
    settingsStore.getState().updateSettings(switchesAsOverrides(row.switches));
    setApplied(row);
  };

  return (
    <section className="card" aria-labelledby="ablation-title" data-testid="bank-ablation">
      <h2 id="ablation-title">Ablation</h2>
      <p>
        Evaluates the bank under every combination of ranker (bm25, dense, hybrid), query expansion, HyDE and
        reranking this server can run, each as its own evaluation run. Top-k, candidates, minimum score and
        the document filter come from your current settings.
      </p>
      <div className="form-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={start.busy || active || itemCount === 0}
          onClick={() =>
            start.run(async () => {
              setApplied(null);
              setAblation(await api.startAblation(bankId, getEffectiveSettings()));
            }, 'The ablation could not be started.')
          }
        >
          {start.busy ? 'Starting…' : 'Run the ablation'}
        </button>
        {itemCount === 0 ? <span className="field-hint">Add questions first.</span> : null}
      </div>
      <ErrorNotice error={start.error ?? latest.error} />
      {shown ? <AblationMatrix ablation={shown} active={active} applied={applied} onUse={use} /> : null}
    </section>
  );
}

function AblationMatrix({
  ablation,
  active,
  applied,
  onUse,
}: {
  ablation: Ablation;
  active: boolean;
  applied: AblationRow | null;
  onUse: (row: AblationRow) => void;
}) {
  const best = bestRow(ablation);
  return (
    <div className="ablation" data-ablation-id={ablation.id} data-ablation-status={ablation.status}>
      <p className="field-hint">
        Started {formatDateTime(ablation.createdAt)} · {plural(ablation.total, 'combination')}
        {ablation.finishedAt ? ` · finished ${formatDateTime(ablation.finishedAt)}` : ''}
      </p>
      {active ? (
        <div role="status">
          <ProgressBar
            value={ablation.total ? ablation.finished / ablation.total : 0}
            label="Ablation"
            text={`${ablation.status === 'queued' ? 'Waiting in the queue' : 'Running'}: ${ablation.finished} of ${ablation.total} combinations evaluated`}
          />
        </div>
      ) : null}
      {ablation.status === 'failed' ? (
        <p className="status-reason">
          The ablation failed: {ablation.error ?? 'the server did not say why.'}
        </p>
      ) : null}
      <ul className="field-hint plain-list">
        {ablation.generator === 'prf' ? (
          <li>
            No LLM is configured: expansion and HyDE are written offline by pseudo-relevance feedback
            (labelled PRF), so they make no LLM calls.
          </li>
        ) : null}
        {ablation.rerankAvailable ? null : <li>No reranker is configured, so no combination reranks.</li>}
        <li data-testid="best-rule">{ablation.bestRule}</li>
      </ul>

      {best?.figures ? (
        <div className="ablation-best-summary" data-testid="ablation-best">
          <p>
            <strong>Best {active ? 'so far' : 'for this bank'}:</strong> {best.label} — nDCG@10{' '}
            {formatMetric(best.figures['ndcg@10'])}, {plural(best.figures.llmCalls, 'LLM call')},{' '}
            {best.figures.latencyP50Ms.toFixed(1)} ms median.
          </p>
          <button type="button" className="button button-primary" onClick={() => onUse(best)}>
            Use these settings
          </button>
        </div>
      ) : null}
      {applied ? (
        <p role="status" className="ablation-applied" data-testid="ablation-applied">
          The settings drawer now uses {applied.label}; every other setting is unchanged.
        </p>
      ) : null}

      <AblationChart points={ablationChartData(ablation)} />

      <DataTable
        label="Ablation matrix"
        busy={active}
        head={
          <>
            <th scope="col" className="numeric">
              #
            </th>
            <th scope="col">Combination</th>
            <th scope="col" className="numeric">
              nDCG@10
            </th>
            <th scope="col" className="numeric">
              MRR@10
            </th>
            <th scope="col" className="numeric">
              Support
            </th>
            <th scope="col" className="numeric">
              In-scope refused
            </th>
            <th scope="col" className="numeric">
              Out-of-scope answered
            </th>
            <th scope="col" className="numeric">
              Latency p50
            </th>
            <th scope="col" className="numeric">
              LLM calls
            </th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </>
        }
      >
        {ablation.rows.map((row, index) => {
          const isBest = row.runId === ablation.bestRunId;
          const f = row.figures;
          return (
            <tr
              key={row.runId}
              className={isBest ? 'ablation-best-row' : undefined}
              data-run-id={row.runId}
              data-best={isBest ? 'true' : undefined}
              aria-label={isBest ? `${row.label} (best)` : undefined}
            >
              <td className="numeric mono">{index + 1}</td>
              <td>
                {row.label}
                {isBest ? <span className="badge ablation-best-badge"> Best</span> : null}
                {row.status === 'failed' ? (
                  <small className="status-reason"> failed: {row.error ?? 'no reason given'}</small>
                ) : row.status !== 'completed' ? (
                  <small className="field-hint"> {row.status}</small>
                ) : null}
              </td>
              <td className="numeric mono">{formatMetric(f?.['ndcg@10'])}</td>
              <td className="numeric mono">{formatMetric(f?.['mrr@10'])}</td>
              <td className="numeric mono">{f ? formatRate(f.support) : '—'}</td>
              <td className="numeric mono">{f ? formatRate(f.inScopeRefused) : '—'}</td>
              <td className="numeric mono">{f ? formatRate(f.outOfScopeAnswered) : '—'}</td>
              <td className="numeric mono">{f ? `${f.latencyP50Ms.toFixed(1)} ms` : '—'}</td>
              <td className="numeric mono">{f ? f.llmCalls : '—'}</td>
              <td className="actions">
                {row.status === 'completed' ? (
                  <>
                    <button
                      type="button"
                      className="button button-ghost button-small"
                      onClick={() => onUse(row)}
                      aria-label={`Use ${row.label}`}
                    >
                      Use
                    </button>{' '}
                    <Link href={`/evals/${encodeURIComponent(row.runId)}`}>Run</Link>
                  </>
                ) : null}
              </td>
            </tr>
          );
        })}
      </DataTable>
    </div>
  );
}

'use client';

import Link from 'next/link';
import { useState } from 'react';
import { useAction } from '../../hooks/use-action';
import { usePoll } from '../../hooks/use-poll';
import { useResource } from '../../hooks/use-resource';
import { useApiClient } from '../../hooks/use-api-client';
import type { EvalRun, EvalRunSummary } from '@lumina/shared';
import { formatDateTime, formatMetric } from '../../lib/format';
import { getEffectiveSettings } from '../../store/settings.store';
import { AnswerFigures } from '../evals/answer-figures';
import { SettingsDrawer } from '../settings/settings-drawer';
import { SettingsSummary } from '../settings/settings-summary';
import { ErrorNotice } from '../ui/error-notice';
import './question-banks.css';

const HEADLINE_METRICS = ['hit@1', 'hit@5', 'mrr@10', 'ndcg@10'];

function pickMetrics(metrics: Record<string, number>): [string, number][] {
  const entries = Object.entries(metrics);
  const lower = (key: string) => key.toLowerCase();
  const headline = entries.filter(([key]) => HEADLINE_METRICS.includes(lower(key)));
  return headline.length ? headline : entries.slice(0, 4);
}

/** "Evaluate with current settings": queues a run over the bank and follows it to its metrics. */
export function BankEvaluate({ bankId, itemCount }: { bankId: string; itemCount: number }) {
  const api = useApiClient();
  const [run, setRun] = useState<EvalRunSummary | EvalRun | null>(null);
  const start = useAction();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [startedAt, setStartedAt] = useState(0);
  const [elapsed, setElapsed] = useState(0);
  const active = run !== null && (run.status === 'queued' || run.status === 'running');
  // The bank's latest completed run, shown until this page starts a new one.
  const latest = useResource(run === null ? `latest-run|${bankId}` : null, async (signal) => {
    const page = await api.listEvalRuns({ page: 1, limit: 20, bankId }, { signal });
    const done = page.items
      .filter((item) => item.status === 'completed')
      .sort((a, b) => (b.finishedAt ?? b.createdAt).localeCompare(a.finishedAt ?? a.createdAt))[0];
    return done ? api.getEvalRun(done.id, { signal }) : null;
  });

  usePoll(active, async (signal) => {
    if (!run) return true;
    const next = await api.getEvalRun(run.id, { signal });
    setRun(next);
    setElapsed(Date.now() - startedAt);
    return next.status === 'completed' || next.status === 'failed';
  });

  return (
    <section className="card" aria-labelledby="evaluate-title">
      <h2 id="evaluate-title">Evaluate</h2>
      <p>
        Runs every question through the same search as the chat, with: <SettingsSummary />{' '}
        <button
          type="button"
          className="button button-ghost button-small"
          onClick={() => setSettingsOpen(true)}
        >
          Change settings
        </button>
      </p>
      <div className="form-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={start.busy || active || itemCount === 0}
          onClick={() =>
            start.run(async () => {
              setStartedAt(Date.now());
              setElapsed(0);
              setRun(await api.evaluateQuestionBank(bankId, getEffectiveSettings()));
            }, 'The evaluation could not be started.')
          }
        >
          {start.busy ? 'Starting…' : 'Evaluate with current settings'}
        </button>
        {itemCount === 0 ? <span className="field-hint">Add questions first.</span> : null}
      </div>
      <ErrorNotice error={start.error} />
      {run ? (
        <div className="job-status" role="status" data-run-status={run.status}>
          {active ? (
            <div className="progress" data-tone="normal">
              <div
                className="progress-track progress-indeterminate"
                role="progressbar"
                aria-label="Evaluation run"
                aria-valuetext={`${run.status}, ${run.itemCount} questions`}
              >
                <div className="progress-fill" />
              </div>
              <span className="progress-text">
                {run.status === 'queued' ? 'Waiting in the queue' : 'Running'} · {run.itemCount} questions ·{' '}
                {Math.round(elapsed / 1000)} s
              </span>
            </div>
          ) : null}
          {run.status === 'failed' ? (
            <p className="status-reason">The run failed: {run.error ?? 'the server did not say why.'}</p>
          ) : null}
          {run.status === 'completed' && run.metrics ? (
            <>
              <dl className="metric-tiles">
                {pickMetrics(run.metrics).map(([key, value]) => (
                  <div key={key}>
                    <dt>{key}</dt>
                    <dd>{formatMetric(value)}</dd>
                  </div>
                ))}
              </dl>
              {'answers' in run ? <AnswerFigures answers={run.answers} /> : null}
              <p>
                <Link href={`/evals/${encodeURIComponent(run.id)}`}>Open this run</Link> ·{' '}
                <Link href={`/evals?bank=${encodeURIComponent(bankId)}&run=${encodeURIComponent(run.id)}`}>
                  See this run on the evaluations page
                </Link>
              </p>
            </>
          ) : null}
        </div>
      ) : null}
      {run === null && latest.data ? (
        <section aria-labelledby="latest-run-title" className="latest-run" data-run-id={latest.data.id}>
          <h3 id="latest-run-title">Latest run ({formatDateTime(latest.data.finishedAt)})</h3>
          <AnswerFigures answers={latest.data.answers} />
          <p>
            <Link href={`/evals/${encodeURIComponent(latest.data.id)}`}>Open the latest run</Link>
          </p>
        </section>
      ) : null}
      <SettingsDrawer id="bank-settings" open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </section>
  );
}

'use client';

import { resolveSettings } from '@lumina/shared';
import Link from 'next/link';
import { useState } from 'react';
import { usePoll } from '../../hooks/use-poll';
import { useResource } from '../../hooks/use-resource';
import { useApiClient } from '../../hooks/use-api-client';
import { explainMetric, runTime, settingsFacts } from '../../lib/eval-runs';
import { formatMetric, plural } from '../../lib/format';
import { ErrorNotice } from '../ui/error-notice';
import { Notice } from '../ui/notice';
import { AnswerFigures } from './answer-figures';
import { ItemAnswers } from './item-answers';
import './evals.css';

/** One evaluation run: its retrieval metrics, its answer figures and, per question, what happened. */
export function RunDetail({ id }: { id: string }) {
  const api = useApiClient();
  const [version, setVersion] = useState(0);
  const run = useResource(`run|${id}|${version}`, (signal) => api.getEvalRun(id, { signal }));
  const bank = useResource(run.data ? `bank|${run.data.bankId}` : null, (signal) =>
    api.getQuestionBank(run.data?.bankId ?? '', { signal }),
  );
  const pending = run.data?.status === 'queued' || run.data?.status === 'running';
  usePoll(
    pending,
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      setVersion((value) => value + 1);
      return false;
    },
    0,
  );
  const data = run.data;

  return (
    <section className="page wide-page" aria-labelledby="page-title">
      <p>
        <Link href={data ? `/evals?bank=${encodeURIComponent(data.bankId)}` : '/evals'}>← Evaluations</Link>
      </p>
      <h1 id="page-title">Evaluation run</h1>
      {run.missing ? <Notice tone="warn">This run doesn&apos;t exist on this server.</Notice> : null}
      <ErrorNotice error={run.missing ? null : run.error} onRetry={run.reload} />
      {data ? (
        <>
          <dl className="trace-facts card">
            <div>
              <dt>Bank</dt>
              <dd>
                <Link href={`/question-banks/${encodeURIComponent(data.bankId)}`}>
                  {bank.data?.name ?? data.bankId.slice(0, 8)}
                </Link>
              </dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd>
                <span className="status-chip" data-status={data.status}>
                  {data.status}
                </span>
                {data.error ? <span className="cell-sub status-reason">{data.error}</span> : null}
              </dd>
            </div>
            <div>
              <dt>Finished</dt>
              <dd>{runTime(data.finishedAt, true)}</dd>
            </div>
            <div>
              <dt>Questions</dt>
              <dd>
                {plural(data.itemCount, 'question')}, {data.scoredItems} scored for retrieval
              </dd>
            </div>
          </dl>

          <section className="card" aria-labelledby="settings-title">
            <h2 id="settings-title">Settings it ran with</h2>
            <dl className="trace-facts" data-testid="run-settings">
              {settingsFacts(resolveSettings(data.settings)).map((fact) => (
                <div key={fact.label}>
                  <dt>{fact.label}</dt>
                  <dd>{fact.value}</dd>
                </div>
              ))}
            </dl>
          </section>

          <section className="card" aria-labelledby="answers-title">
            <h2 id="answers-title">Answers</h2>
            <AnswerFigures answers={data.answers} />
          </section>

          <section className="card" aria-labelledby="metrics-title">
            <h2 id="metrics-title">Retrieval</h2>
            {data.metrics ? (
              <>
                <dl className="metric-tiles">
                  {Object.entries(data.metrics).map(([name, value]) => (
                    <div key={name}>
                      <dt>{name}</dt>
                      <dd>{formatMetric(value)}</dd>
                    </div>
                  ))}
                </dl>
                <dl className="metric-explanations" data-testid="metric-explanations">
                  {Object.keys(data.metrics).flatMap((name) => {
                    const meaning = explainMetric(name);
                    return meaning
                      ? [
                          <div key={name}>
                            <dt>{name}</dt>
                            <dd>{meaning}</dd>
                          </div>,
                        ]
                      : [];
                  })}
                </dl>
              </>
            ) : (
              <p className="field-hint">No metrics yet.</p>
            )}
          </section>

          <section className="card" aria-labelledby="items-title">
            <h2 id="items-title">Per question</h2>
            <ItemAnswers items={data.perItem} />
          </section>
        </>
      ) : run.loading ? (
        <p className="field-hint">Loading the run…</p>
      ) : null}
    </section>
  );
}

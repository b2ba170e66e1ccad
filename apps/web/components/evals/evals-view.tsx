'use client';

import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useMemo, useState } from 'react';
import { usePoll } from '../../hooks/use-poll';
import { useResource } from '../../hooks/use-resource';
import { useUrlState } from '../../hooks/use-url-state';
import { pageFromParam } from '../../lib/url-state';
import { useApiClient } from '../../hooks/use-api-client';
import type { EvalRunSummary } from '@lumina/shared';
import { runLabels } from '../../lib/eval-runs';
import { formatMetric } from '../../lib/format';
import { metricNames, metricSeries } from '../../lib/eval-charts';
import { DataTable } from '../ui/data-table';
import { ErrorNotice } from '../ui/error-notice';
import { Notice } from '../ui/notice';
import { Pagination } from '../ui/pagination';
import { MetricTrendChart } from './metric-trend-chart';
import { RunComparison } from './run-comparison';

const PAGE_SIZE = 20;

function settingsLine(run: EvalRunSummary): string {
  const s = run.settings;
  if (!s) return '—';
  return [
    s.ranker,
    `top ${s.topK}`,
    s.enableQueryExpansion ? `${s.enableQueryExpansion === 'adaptive' ? 'adaptive ' : ''}expansion` : null,
    s.enableHyDE ? `${s.enableHyDE === 'adaptive' ? 'adaptive ' : ''}HyDE` : null,
    s.enableRerank ? 'rerank' : null,
    s.minScore > 0 ? `≥${s.minScore}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Evaluation runs: a table, a metric over time, and two runs compared per item. */
export function EvalsView() {
  const api = useApiClient();
  const params = useSearchParams();
  const [url, setUrl] = useUrlState({ bank: '', page: '1' });
  const bankId = url.bank;
  const page = pageFromParam(url.page);
  const setPage = (next: number) => setUrl({ page: next });
  const [metric, setMetric] = useState('');
  const [runA, setRunA] = useState('');
  const [runB, setRunB] = useState(params.get('run') ?? '');
  const [version, setVersion] = useState(0);

  const banks = useResource('eval-banks', (signal) =>
    api.listQuestionBanks({ page: 1, limit: 100 }, { signal }),
  );
  const runs = useResource(`runs|${bankId}|${page}|${version}`, (signal) =>
    api.listEvalRuns({ page, limit: PAGE_SIZE, bankId: bankId || undefined }, { signal }),
  );
  const items = useMemo(() => runs.data?.items ?? [], [runs.data]);
  // Two runs made in the same minute get the seconds (or the start of their id) to tell them apart.
  const labels = useMemo(() => runLabels(items), [items]);
  const pending = items.some((run) => run.status === 'queued' || run.status === 'running');
  // While a run is queued or running, the list refreshes itself.
  usePoll(
    pending,
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      setVersion((value) => value + 1);
      return false;
    },
    0,
  );

  const names = metricNames(items);
  const chosenMetric = metric && names.includes(metric) ? metric : (names[0] ?? '');
  const points = metricSeries(items, chosenMetric);
  const bankName = (id: string) => banks.data?.items.find((bank) => bank.id === id)?.name ?? id.slice(0, 8);
  const headline = names.slice(0, 3);

  return (
    <section className="page wide-page" aria-labelledby="page-title">
      <h1 id="page-title">Evaluations</h1>
      <p className="field-hint">
        Start a run from a <Link href="/question-banks">question bank</Link> (&ldquo;Evaluate with current
        settings&rdquo;).
      </p>

      <div className="filters card">
        <div className="field field-inline">
          <label htmlFor="eval-bank">Bank</label>
          <select id="eval-bank" value={bankId} onChange={(e) => setUrl({ bank: e.target.value, page: 1 })}>
            <option value="">All banks</option>
            {(banks.data?.items ?? []).map((bank) => (
              <option key={bank.id} value={bank.id}>
                {bank.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor="eval-metric">Metric</label>
          <select
            id="eval-metric"
            value={chosenMetric}
            onChange={(e) => setMetric(e.target.value)}
            disabled={names.length === 0}
          >
            {names.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </div>

      {runs.missing ? (
        <Notice tone="warn">Evaluation runs aren&apos;t available on this server yet.</Notice>
      ) : null}
      <ErrorNotice error={runs.missing ? null : runs.error} onRetry={runs.reload} />

      <section className="card" aria-labelledby="trend-title">
        <h2 id="trend-title">{chosenMetric || 'Metric'} over time</h2>
        {chosenMetric ? (
          <MetricTrendChart metric={chosenMetric} points={points} bankName={bankName} />
        ) : (
          <p className="field-hint">No completed runs yet.</p>
        )}
      </section>

      <section className="card" aria-labelledby="runs-title">
        <h2 id="runs-title">Runs</h2>
        {runs.data && items.length === 0 && !runs.loading ? (
          <p className="empty-state">No evaluation runs yet.</p>
        ) : null}
        {items.length > 0 ? (
          <DataTable
            label="Evaluation runs"
            busy={runs.loading}
            head={
              <>
                <th scope="col">A</th>
                <th scope="col">B</th>
                <th scope="col">Finished</th>
                <th scope="col">Bank</th>
                <th scope="col">Status</th>
                <th scope="col" className="hide-narrow">
                  Settings
                </th>
                {headline.map((name) => (
                  <th key={name} scope="col" className="numeric">
                    {name}
                  </th>
                ))}
              </>
            }
          >
            {items.map((run) => {
              const done = run.status === 'completed';
              return (
                <tr key={run.id} data-run-id={run.id} data-status={run.status}>
                  <td>
                    <input
                      type="radio"
                      name="run-a"
                      aria-label={`Use the run of ${labels.get(run.id)} as A`}
                      checked={runA === run.id}
                      disabled={!done}
                      onChange={() => setRunA(run.id)}
                    />
                  </td>
                  <td>
                    <input
                      type="radio"
                      name="run-b"
                      aria-label={`Use the run of ${labels.get(run.id)} as B`}
                      checked={runB === run.id}
                      disabled={!done}
                      onChange={() => setRunB(run.id)}
                    />
                  </td>
                  <td>
                    <Link
                      href={`/evals/${encodeURIComponent(run.id)}`}
                      aria-label={`Open the run of ${labels.get(run.id)}`}
                    >
                      {labels.get(run.id)}
                    </Link>
                  </td>
                  <td>{bankName(run.bankId)}</td>
                  <td>
                    <span className="status-chip" data-status={run.status}>
                      {run.status}
                    </span>
                    {run.error ? <span className="cell-sub status-reason">{run.error}</span> : null}
                  </td>
                  <td className="hide-narrow">{settingsLine(run)}</td>
                  {headline.map((name) => (
                    <td key={name} className="numeric mono">
                      {formatMetric(run.metrics?.[name])}
                    </td>
                  ))}
                </tr>
              );
            })}
          </DataTable>
        ) : null}
        <Pagination label="Runs" data={runs.data} disabled={runs.loading} onPage={setPage} />
      </section>

      <section className="card" aria-labelledby="compare-title">
        <h2 id="compare-title">Compare two runs</h2>
        {runA && runB && runA !== runB ? (
          <RunComparison a={runA} b={runB} />
        ) : (
          <p className="field-hint">
            Choose a completed run as A (the baseline) and another as B in the table.
          </p>
        )}
      </section>
    </section>
  );
}

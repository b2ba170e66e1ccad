'use client';

import { useResource } from '../../hooks/use-resource';
import { useApiClient } from '../../hooks/use-api-client';
import { compareItems, flipMetric } from '../../lib/eval-charts';
import { formatMetric } from '../../lib/format';
import { Notice } from '../ui/notice';
import { AnswerFiguresComparison } from './answer-figures';
import { ItemComparisonChart } from './item-comparison-chart';
import './evals.css';

function pValue(value: number): string {
  return value < 0.001 ? '<0.001' : value.toFixed(3);
}

/** B − A: each metric with its p-value, the items per chart, and the items that flipped. */
export function RunComparison({ a, b }: { a: string; b: string }) {
  const api = useApiClient();
  const data = useResource(`compare|${a}|${b}`, async (signal) => {
    const [comparison, runA, runB] = await Promise.all([
      api.compareEvalRuns(a, b, { signal }),
      api.getEvalRun(a, { signal }),
      api.getEvalRun(b, { signal }),
    ]);
    return { comparison, runA, runB };
  });
  if (data.error) {
    return (
      <Notice tone="bad" alert onRetry={data.reload}>
        {data.error}
      </Notice>
    );
  }
  if (!data.data) return <p className="field-hint">Comparing…</p>;
  const { comparison, runA, runB } = data.data;
  const metric = flipMetric(comparison);
  const rows = compareItems(runA, runB, comparison, metric);
  const flips = metric ? comparison.flips[metric] : null;

  return (
    <div className="comparison" aria-busy={data.loading}>
      <p>
        {comparison.pairedItems} item{comparison.pairedItems === 1 ? '' : 's'} scored in both runs.
      </p>
      {comparison.warnings.length ? (
        <ul className="retrieval-warnings">
          {comparison.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      ) : null}
      <div className="table-wrap">
        <table className="data-table" aria-label="Metrics of A and B">
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col" className="numeric">
                A
              </th>
              <th scope="col" className="numeric">
                B
              </th>
              <th scope="col" className="numeric">
                B − A
              </th>
              <th scope="col" className="numeric">
                p (Holm)
              </th>
            </tr>
          </thead>
          <tbody>
            {comparison.comparisons.map((row) => (
              <tr key={row.metric}>
                <td>{row.metric}</td>
                <td className="numeric mono" data-label="A">
                  {formatMetric(row.a)}
                </td>
                <td className="numeric mono" data-label="B">
                  {formatMetric(row.b)}
                </td>
                <td
                  className="numeric mono"
                  data-label="B − A"
                  data-sign={row.difference > 0 ? 'up' : row.difference < 0 ? 'down' : 'zero'}
                >
                  {row.difference > 0 ? '+' : ''}
                  {formatMetric(row.difference)}
                </td>
                <td className="numeric mono" data-label="p (Holm)">
                  {pValue(row.adjustedPValue)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h3>Answers</h3>
      <AnswerFiguresComparison a={runA.answers} b={runB.answers} />

      <ItemComparisonChart rows={rows} metric={metric} />

      <div className="flip-columns">
        <section aria-labelledby="flips-b">
          <h3 id="flips-b">Only B hit{metric ? ` (${metric})` : ''}</h3>
          {flips && flips.onlyB.length ? (
            <ul className="plain-list" data-testid="flips-only-b">
              {flips.onlyB.map((flip) => (
                <li key={flip.itemId}>{flip.question}</li>
              ))}
            </ul>
          ) : (
            <p className="field-hint">None.</p>
          )}
        </section>
        <section aria-labelledby="flips-a">
          <h3 id="flips-a">Only A hit{metric ? ` (${metric})` : ''}</h3>
          {flips && flips.onlyA.length ? (
            <ul className="plain-list" data-testid="flips-only-a">
              {flips.onlyA.map((flip) => (
                <li key={flip.itemId}>{flip.question}</li>
              ))}
            </ul>
          ) : (
            <p className="field-hint">None.</p>
          )}
        </section>
      </div>
    </div>
  );
}

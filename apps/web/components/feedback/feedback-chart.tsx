'use client';

import type { FeedbackDay } from '@lumina/shared';
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { dailyPoints, dailyTotals, percent } from '../../lib/feedback';
import './feedback.css';

export interface FeedbackChartProps {
  days: readonly FeedbackDay[];
}

/**
 * Each day's answers (bars) with the share that said the documents don't say and the share of ratings
 * that were thumbs-down (lines). The numbers are in the table below it, for screen readers.
 */
export function FeedbackChart({ days }: FeedbackChartProps) {
  const points = dailyPoints(days);
  const totals = dailyTotals(days);
  return (
    <figure
      className="chart"
      aria-label="Answers, not-found rate and thumbs-down rate per day"
      data-testid="feedback-chart"
    >
      <p className="feedback-totals">
        <span>
          <strong>{totals.answers}</strong> {totals.answers === 1 ? 'answer' : 'answers'}
        </span>
        <span>
          <strong>{percent(totals.notFoundRate)}</strong> not found ({totals.notFound})
        </span>
        <span>
          <strong>{percent(totals.downRate)}</strong> of {totals.up + totals.down}{' '}
          {totals.up + totals.down === 1 ? 'rating' : 'ratings'} thumbs-down
        </span>
      </p>
      <div className="chart-box" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={points} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis
              dataKey="label"
              tick={{ fontSize: 12, fill: 'var(--text-muted)' }}
              interval="preserveStartEnd"
            />
            <YAxis
              yAxisId="count"
              allowDecimals={false}
              tick={{ fontSize: 12, fill: 'var(--text-muted)' }}
              width={36}
            />
            <YAxis
              yAxisId="rate"
              orientation="right"
              domain={[0, 1]}
              tickFormatter={(value: number) => `${Math.round(value * 100)}%`}
              tick={{ fontSize: 12, fill: 'var(--text-muted)' }}
              width={44}
            />
            <Tooltip
              formatter={(value, name) =>
                name === 'Answers'
                  ? [String(value), name]
                  : [percent(typeof value === 'number' ? value : null), name]
              }
              contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)' }}
            />
            <Legend />
            <Bar
              yAxisId="count"
              dataKey="answers"
              name="Answers"
              fill="var(--accent-soft)"
              stroke="var(--accent)"
              isAnimationActive={false}
            />
            <Line
              yAxisId="rate"
              dataKey="notFoundRate"
              name="Not found"
              stroke="var(--general, #b26b00)"
              strokeWidth={2}
              connectNulls
              isAnimationActive={false}
            />
            <Line
              yAxisId="rate"
              dataKey="downRate"
              name="Thumbs-down"
              stroke="var(--bad, #b3261e)"
              strokeWidth={2}
              connectNulls
              isAnimationActive={false}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <details>
        <summary>The numbers per day</summary>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Answers</th>
              <th scope="col">Not found</th>
              <th scope="col">Thumbs up</th>
              <th scope="col">Thumbs down</th>
            </tr>
          </thead>
          <tbody>
            {points
              .filter((point) => point.answers > 0 || point.up + point.down > 0)
              .map((point) => (
                <tr key={point.day}>
                  <th scope="row">{point.day}</th>
                  <td>{point.answers}</td>
                  <td>
                    {point.notFound} ({percent(point.notFoundRate)})
                  </td>
                  <td>{point.up}</td>
                  <td>
                    {point.down} ({percent(point.downRate)})
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

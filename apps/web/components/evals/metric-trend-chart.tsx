'use client';

import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { MetricPoint } from '../../lib/eval-charts';

export interface MetricTrendChartProps {
  metric: string;
  points: readonly MetricPoint[];
  bankName: (bankId: string) => string;
}

/** A metric per run over time (oldest left). The same numbers are in the table below, for screen readers. */
export function MetricTrendChart({ metric, points, bankName }: MetricTrendChartProps) {
  if (points.length === 0) {
    return <p className="field-hint">No completed run reports {metric} yet.</p>;
  }
  return (
    <figure className="chart" aria-label={`${metric} per run over time`} data-testid="metric-trend-chart">
      <div className="chart-box" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={[...points]} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis
              dataKey="label"
              tick={{ fontSize: 12, fill: 'var(--text-muted)' }}
              interval="preserveStartEnd"
              padding={{ left: 56, right: 56 }}
            />
            <YAxis domain={[0, 1]} tick={{ fontSize: 12, fill: 'var(--text-muted)' }} width={40} />
            <Tooltip
              formatter={(value) => [typeof value === 'number' ? value.toFixed(3) : String(value), metric]}
              labelFormatter={(label, payload) => {
                const point = payload?.[0]?.payload as MetricPoint | undefined;
                return point ? `${label} · ${bankName(point.bankId)}` : String(label);
              }}
              contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)' }}
            />
            <Line
              type="monotone"
              dataKey="value"
              name={metric}
              stroke="var(--accent)"
              strokeWidth={2}
              dot={{ r: 4 }}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="field-hint">
        {metric} of {points.length} completed run{points.length === 1 ? '' : 's'}, oldest first.
      </figcaption>
    </figure>
  );
}

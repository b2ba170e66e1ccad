'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { AblationChartPoint } from '../../lib/ablation';

/** nDCG@10 and MRR@10 of every completed combination, numbered as in the matrix; ★ marks the best. */
export function AblationChart({ points }: { points: readonly AblationChartPoint[] }) {
  if (points.length === 0) return <p className="field-hint">No combination has finished yet.</p>;
  return (
    <figure className="chart" aria-label="nDCG@10 and MRR@10 per combination" data-testid="ablation-chart">
      <div className="chart-box" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={[...points]} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis
              dataKey="axis"
              tick={{ fontSize: 11, fill: 'var(--text-muted)' }}
              interval="preserveStartEnd"
            />
            <YAxis domain={[0, 1]} tick={{ fontSize: 12, fill: 'var(--text-muted)' }} width={40} />
            <Tooltip
              formatter={(value, name) => [typeof value === 'number' ? value.toFixed(3) : value, name]}
              labelFormatter={(_, payload) =>
                (payload?.[0]?.payload as AblationChartPoint | undefined)?.label ?? ''
              }
              contentStyle={{
                background: 'var(--surface)',
                border: '1px solid var(--border)',
                maxWidth: 320,
                whiteSpace: 'normal',
              }}
            />
            <Legend />
            <Bar dataKey="ndcg" name="nDCG@10" fill="var(--chart-b)" isAnimationActive={false} />
            <Bar dataKey="mrr" name="MRR@10" fill="var(--chart-a)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="field-hint">
        nDCG@10 and MRR@10 per combination (numbers as in the matrix; ★ the best). Hover a bar for its
        settings.
      </figcaption>
    </figure>
  );
}

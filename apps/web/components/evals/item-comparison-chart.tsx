'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ItemComparisonRow } from '../../lib/eval-charts';

export interface ItemComparisonChartProps {
  rows: readonly ItemComparisonRow[];
  metric: string | null;
}

function rankText(rank: number | null): string {
  return rank === null ? 'not found' : `rank ${rank}`;
}

/**
 * Run A and run B per item: the reciprocal rank of the first relevant passage (1 = first, 0 = not
 * found). Items whose hit flipped are marked on the axis (▲ B gained, ▼ B lost).
 */
export function ItemComparisonChart({ rows, metric }: ItemComparisonChartProps) {
  if (rows.length === 0) return <p className="field-hint">The two runs have no scored item in common.</p>;
  const data = rows.map((row) => ({
    ...row,
    axis: row.flip === 'onlyB' ? `${row.label} ▲` : row.flip === 'onlyA' ? `${row.label} ▼` : row.label,
  }));
  return (
    <figure className="chart" aria-label="Runs A and B compared per item" data-testid="item-comparison-chart">
      <div className="chart-box" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis dataKey="axis" tick={{ fontSize: 12, fill: 'var(--text-muted)' }} interval={0} />
            <YAxis domain={[0, 1]} tick={{ fontSize: 12, fill: 'var(--text-muted)' }} width={40} />
            <Tooltip
              formatter={(value, name, item) => {
                const row = item.payload as ItemComparisonRow;
                const rank = name === 'Run A' ? row.rankA : row.rankB;
                return [`${typeof value === 'number' ? value.toFixed(2) : value} (${rankText(rank)})`, name];
              }}
              labelFormatter={(_, payload) =>
                (payload?.[0]?.payload as ItemComparisonRow | undefined)?.question ?? ''
              }
              contentStyle={{
                background: 'var(--surface)',
                border: '1px solid var(--border)',
                maxWidth: 320,
                whiteSpace: 'normal',
              }}
            />
            <Legend />
            <Bar dataKey="a" name="Run A" fill="var(--chart-a)" isAnimationActive={false} />
            <Bar dataKey="b" name="Run B" fill="var(--chart-b)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="field-hint">
        Reciprocal rank of the first relevant passage per item (1 = ranked first, 0 = not found). ▲: only B
        hit, ▼: only A hit{metric ? ` (${metric})` : ''}.
      </figcaption>
    </figure>
  );
}

'use client';

import { useHealth } from '../../hooks/use-health';
import { summariseHealth } from '../../lib/health-summary';
import { StatusPill } from './status-pill';

/** API, database, Redis and LLM state from GET /health, refreshed in the background. */
export function StatusBadge() {
  const state = useHealth();
  const summary = summariseHealth(state);
  return (
    <div
      className="status-badge"
      role="status"
      aria-label="Server status"
      data-api-state={state.phase}
      title={summary.explanation || undefined}
    >
      <StatusPill label="API" value={summary.api.value} tone={summary.api.tone} title={summary.explanation} />
      <StatusPill
        label="DB"
        value={summary.database.value}
        tone={summary.database.tone}
        title={summary.database.title}
      />
      <StatusPill label="Redis" value={summary.redis.value} tone={summary.redis.tone} />
      <StatusPill label="LLM" value={summary.llm.value} tone={summary.llm.tone} title={summary.llm.title} />
      {summary.explanation ? <span className="visually-hidden">{summary.explanation}</span> : null}
    </div>
  );
}

'use client';

import { useHealth, type HealthState } from '../../hooks/use-health';
import type { ServiceStatus } from '../../lib/api-types';
import { StatusPill, type StatusTone } from './status-pill';

const GOOD = new Set(['up', 'ok', 'healthy', 'connected', 'ready']);
const BAD = new Set(['down', 'error', 'unhealthy', 'disconnected', 'failed']);

function serviceTone(status: ServiceStatus): StatusTone {
  const value = status.toLowerCase();
  if (GOOD.has(value)) return 'good';
  if (BAD.has(value)) return 'bad';
  return value === 'unknown' ? 'unknown' : 'warn';
}

interface Summary {
  api: { value: string; tone: StatusTone };
  database: { value: string; tone: StatusTone };
  redis: { value: string; tone: StatusTone };
  explanation: string;
}

const UNKNOWN = { value: 'unknown', tone: 'unknown' as const };

function summarise(state: HealthState): Summary {
  switch (state.phase) {
    case 'checking':
      return {
        api: { value: 'checking…', tone: 'unknown' },
        database: UNKNOWN,
        redis: UNKNOWN,
        explanation: '',
      };
    case 'unreachable':
      return {
        api: { value: 'unreachable', tone: 'bad' },
        database: UNKNOWN,
        redis: UNKNOWN,
        explanation: state.message,
      };
    case 'error':
      return {
        api: { value: 'error', tone: 'bad' },
        database: UNKNOWN,
        redis: UNKNOWN,
        explanation: state.message,
      };
    case 'online': {
      const { report } = state;
      const degraded = report.status !== 'ok';
      const driver = report.database.driver ? ` (${report.database.driver})` : '';
      return {
        api: { value: degraded ? 'degraded' : 'online', tone: degraded ? 'warn' : 'good' },
        database: { value: `${report.database.status}${driver}`, tone: serviceTone(report.database.status) },
        redis: { value: report.redis.status, tone: serviceTone(report.redis.status) },
        explanation: degraded ? 'The server is running, but some of its services are not.' : '',
      };
    }
  }
}

/** API, database and Redis state from GET /health, refreshed in the background. */
export function StatusBadge() {
  const state = useHealth();
  const summary = summarise(state);
  return (
    <div
      className="status-badge"
      role="status"
      aria-label="Server status"
      data-api-state={state.phase}
      title={summary.explanation || undefined}
    >
      <StatusPill label="API" value={summary.api.value} tone={summary.api.tone} title={summary.explanation} />
      <StatusPill label="DB" value={summary.database.value} tone={summary.database.tone} />
      <StatusPill label="Redis" value={summary.redis.value} tone={summary.redis.tone} />
      {summary.explanation ? <span className="visually-hidden">{summary.explanation}</span> : null}
    </div>
  );
}

'use client';

import { useHealth, type HealthState } from '../../hooks/use-health';
import type { HealthReportView, ServiceStatus } from '../../lib/api/health';
import { useServerFacts, type ServerFacts } from '../../store/server-facts.store';
import { StatusPill, type StatusTone } from './status-pill';

const GOOD = new Set(['up', 'ok', 'healthy', 'connected', 'ready']);
const BAD = new Set(['down', 'error', 'unhealthy', 'disconnected', 'failed']);

function serviceTone(status: ServiceStatus): StatusTone {
  const value = status.toLowerCase();
  if (GOOD.has(value)) return 'good';
  if (BAD.has(value)) return 'bad';
  return value === 'unknown' ? 'unknown' : 'warn';
}

interface Pill {
  value: string;
  tone: StatusTone;
  title?: string;
}

interface Summary {
  api: Pill;
  database: Pill;
  redis: Pill;
  llm: Pill;
  explanation: string;
}

const UNKNOWN: Pill = { value: 'unknown', tone: 'unknown' };

function llmPill(report: HealthReportView, observed: ServerFacts['llm'], model: string | null): Pill {
  const { llm } = report;
  if (!llm && observed === 'configured') {
    return {
      value: 'in use',
      tone: 'good',
      title: `The last answers were written by a language model${model ? ` (${model})` : ''}; the status report itself doesn't include it.`,
    };
  }
  if (!llm && observed === 'not-configured') {
    return {
      value: 'offline',
      tone: 'warn',
      title: 'The last answers came from the offline extractive answerer: no language model is configured.',
    };
  }
  if (!llm) {
    return {
      value: 'unknown',
      tone: 'unknown',
      title: "This server's status report doesn't say whether a language model is configured.",
    };
  }
  if (!llm.configured) {
    return {
      value: 'offline',
      tone: 'warn',
      title:
        'No language model is configured: answers quote the passages, and query expansion and HyDE use offline fallbacks.',
    };
  }
  return {
    value: llm.model ?? llm.status,
    tone: serviceTone(llm.status === 'unknown' ? 'up' : llm.status),
    title: llm.model,
  };
}

export function summariseHealth(
  state: HealthState,
  observed: ServerFacts['llm'] = 'unknown',
  model: string | null = null,
): Summary {
  switch (state.phase) {
    case 'checking':
      return {
        api: { value: 'checking…', tone: 'unknown' },
        database: UNKNOWN,
        redis: UNKNOWN,
        llm: UNKNOWN,
        explanation: '',
      };
    case 'unreachable':
    case 'error':
      return {
        api: { value: state.phase === 'unreachable' ? 'unreachable' : 'error', tone: 'bad' },
        database: UNKNOWN,
        redis: UNKNOWN,
        llm: UNKNOWN,
        explanation: state.message,
      };
    case 'online': {
      const { report } = state;
      const degraded = report.status !== 'ok';
      const driver = report.database.driver ? `Database driver: ${report.database.driver}` : undefined;
      return {
        api: { value: degraded ? 'degraded' : 'online', tone: degraded ? 'warn' : 'good' },
        database: { value: report.database.status, tone: serviceTone(report.database.status), title: driver },
        redis: { value: report.redis.status, tone: serviceTone(report.redis.status) },
        llm: llmPill(report, observed, model),
        explanation: degraded ? 'The server is running, but some of its services are not.' : '',
      };
    }
  }
}

/** API, database, Redis and LLM state from GET /health, refreshed in the background. */
export function StatusBadge() {
  const state = useHealth();
  const observed = useServerFacts((facts) => facts.llm);
  const model = useServerFacts((facts) => facts.model);
  const summary = summariseHealth(state, observed, model);
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

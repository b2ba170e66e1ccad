/** The status badge's reading of GET /health: one pill per service, pure so it can be tested. */
import type { HealthState, LlmAvailability } from '../hooks/use-health';
import type { HealthReportView, ServiceStatus } from './api/health';
import type { StatusTone } from '../components/ui/status-pill';

const GOOD = new Set(['up', 'ok', 'healthy', 'connected', 'ready']);
const BAD = new Set(['down', 'error', 'unhealthy', 'disconnected', 'failed']);

function serviceTone(status: ServiceStatus): StatusTone {
  const value = status.toLowerCase();
  if (GOOD.has(value)) return 'good';
  if (BAD.has(value)) return 'bad';
  return value === 'unknown' ? 'unknown' : 'warn';
}

export interface Pill {
  value: string;
  tone: StatusTone;
  title?: string;
}

export interface Summary {
  api: Pill;
  database: Pill;
  redis: Pill;
  llm: Pill;
  explanation: string;
}

const UNKNOWN: Pill = { value: 'unknown', tone: 'unknown' };

function llmPill(report: HealthReportView, observed: LlmAvailability, model: string | null): Pill {
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
  if (!llm.configured && llm.search?.source === 'local') {
    const name = llm.local?.model ?? llm.search.model ?? 'local model';
    return {
      value: `local: ${name}`,
      tone: 'good',
      title: `A small model in the server's process (${name}) writes query variants and HyDE passages; answers quote the passages.`,
    };
  }
  if (!llm.configured) {
    if (llm.local?.state === 'missing') {
      return {
        value: 'offline',
        tone: 'warn',
        title: `The local model is asked for but missing: ${llm.local.reason ?? 'see /health'}. Answers quote the passages, and query expansion and HyDE use offline fallbacks.`,
      };
    }
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
  observed: LlmAvailability = 'unknown',
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

/** The status badge's reading of GET /health: one pill per service, pure so it can be tested. */
import type { ComponentStatus, HealthReport } from '@lumina/shared';
import type { HealthState } from '../hooks/use-health';
import type { StatusTone } from '../components/ui/status-pill';

function serviceTone(status: ComponentStatus): StatusTone {
  return status === 'up' ? 'good' : 'bad';
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

function llmPill({ llm }: HealthReport): Pill {
  if (!llm.configured && llm.search.source === 'local') {
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
  return { value: llm.model ?? 'configured', tone: 'good', title: llm.model ?? undefined };
}

export function summariseHealth(state: HealthState): Summary {
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
        llm: llmPill(report),
        explanation: degraded ? 'The server is running, but some of its services are not.' : '',
      };
    }
  }
}

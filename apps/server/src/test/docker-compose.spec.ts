import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ENV_KEYS, validateEnv } from '../config/env.schema';

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(readFileSync(join(__dirname, '../../../../docker-compose.yml'), 'utf8'), {
  merge: true,
}) as { services: Record<string, ComposeService> };

/** Resolve ${VAR:-default} the way compose does when VAR is unset. */
function withDefaults(environment: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).map(([key, value]) => [
      key,
      String(value).replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1'),
    ]),
  );
}

describe('docker-compose.yml agrees with the env schema', () => {
  it('has the services production needs', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['postgres', 'redis', 'server', 'web', 'worker']);
    expect(compose.services.postgres.image).toBe('pgvector/pgvector:pg17');
    expect(compose.services.postgres.healthcheck).toBeDefined();
    expect(compose.services.redis.healthcheck).toBeDefined();
  });

  it.each(['server', 'worker'])('%s sets only variables the schema declares, and they validate', (name) => {
    const environment = compose.services[name].environment ?? {};
    const unknown = Object.keys(environment).filter((key) => !(ENV_KEYS as string[]).includes(key));
    expect(unknown).toEqual([]);
    const env = validateEnv(withDefaults(environment));
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\/lumina:.*@postgres:5432\/lumina$/);
    expect(env.REDIS_URL).toBe('redis://redis:6379');
  });

  it('runs the API and the workers as separate processes', () => {
    expect(compose.services.server.command?.join(' ')).toMatch(/main\.js$/);
    expect(compose.services.worker.command?.join(' ')).toMatch(/worker\.js$/);
    expect(compose.services.server.environment?.WORKERS_IN_PROCESS).toBe('false');
    expect(compose.services.worker.depends_on?.server?.condition).toBe('service_healthy');
  });

  it('gates the worker and the web app on the API being ready (database and Redis), not merely alive', () => {
    expect(compose.services.server.healthcheck?.test.join(' ')).toContain(
      'http://127.0.0.1:3000/health/ready',
    );
  });

  it('points the web app at the API', () => {
    expect(compose.services.web.environment?.LUMINA_API_URL).toMatch(/3000/);
  });
});

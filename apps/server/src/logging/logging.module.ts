import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Request } from 'express';
import type { Env } from '../config/env.schema';
import { matchedRoute } from '../common/net/matched-route';

/** Probes poll these; a log line per probe would drown the rest. */
const HEALTH_ROUTES = new Set(['/health', '/health/live', '/health/ready']);

/** A probe's path as Express matches it: no query, any case, with or without trailing slashes. */
function isHealthProbe(url: string | undefined): boolean {
  const path = (url ?? '').split('?')[0].toLowerCase().replace(/\/+$/, '');
  return HEALTH_ROUTES.has(path);
}

/** The request line's log adds the route template it matched, the same key the rate limits use. */
function withRoute(request: unknown, _response: unknown, value: object): object {
  return { ...value, route: matchedRoute(request as Request) };
}

/** Structured JSON logs (pino); credentials never reach them. */
@Module({})
export class LoggingModule {
  static forRoot(env: Env): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            level: env.LOG_LEVEL,
            redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
            autoLogging: { ignore: (req) => isHealthProbe(req.url) },
            customSuccessObject: withRoute,
            customErrorObject: (request, response, _error, value) => withRoute(request, response, value),
            customProps: () => ({ service: 'lumina' }),
          },
        }),
      ],
    };
  }
}

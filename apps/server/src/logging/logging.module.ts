import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Env } from '../config/env.schema';

/** Probes poll these; a log line per probe would drown the rest. */
const HEALTH_ROUTES = new Set(['/health', '/health/live', '/health/ready']);

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
            autoLogging: { ignore: (req) => HEALTH_ROUTES.has(req.url ?? '') },
            customProps: () => ({ service: 'lumina' }),
          },
        }),
      ],
    };
  }
}

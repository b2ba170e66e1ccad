import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { ConfigModule } from './config/config.module';
import type { Env } from './config/env.schema';
import type { DatabaseConnection } from './database/database-connection';
import { DatabaseModule } from './database/database.module';
import { JobsModule } from './jobs/jobs.module';
import { LoggingModule } from './logging/logging.module';
import { HealthModule } from './modules/health/health.module';
import { RagModule } from './modules/rag/rag.module';
import { ProvidersModule } from './providers/providers.module';

/** The modules every process needs: config, logs, database, queues. */
export function coreImports(
  env: Env,
  connection: DatabaseConnection,
): (DynamicModule | typeof ProvidersModule)[] {
  return [
    ConfigModule.forRoot(env),
    LoggingModule.forRoot(env),
    DatabaseModule.forRoot(connection, env),
    JobsModule.forRoot(env),
    ProvidersModule,
  ];
}

/** The HTTP API (and, in the one-process mode, the workers too). */
@Module({})
export class AppModule {
  static forRoot(env: Env, connection: DatabaseConnection): DynamicModule {
    return {
      module: AppModule,
      imports: [...coreImports(env, connection), HealthModule, RagModule],
    };
  }
}

import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { appSchema } from '../app-data-source';
import { ConfigModule } from '../config/config.module';
import type { Env } from '../config/env.schema';
import type { DatabaseConnection } from '../database/database-connection';
import { DatabaseModule } from '../database/database.module';
import { EvaluationSuitesModule } from '../modules/evaluation/evaluation-suites.module';
import { ProvidersModule } from '../providers/providers.module';
import { OfflineQueuesModule } from './offline-queues.module';

/**
 * The core of the server without HTTP, queues or workers: configuration, the database, the model
 * providers, dataset indexing, the evaluation suites and the question banks. The command-line tools and
 * benchmarks run on it.
 */
@Module({})
export class CoreModule {
  static forRoot(env: Env, connection: DatabaseConnection): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        ConfigModule.forRoot(env),
        DatabaseModule.forRoot(connection, env, appSchema(env)),
        ProvidersModule,
        OfflineQueuesModule,
        EvaluationSuitesModule,
      ],
    };
  }
}

import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { coreImports } from './app.module';
import type { Env } from './config/env.schema';
import type { DatabaseConnection } from './database/database-connection';
import { EvaluationWorkersModule } from './modules/evaluation/evaluation-workers.module';
import { IngestionWorkersModule } from './modules/ingestion/ingestion-workers.module';
import { SourceWorkersModule } from './modules/sources/source-workers.module';

/** BullMQ workers only, no HTTP: run as many of these processes, on as many machines, as the load needs. */
@Module({})
export class WorkerModule {
  static forRoot(env: Env, connection: DatabaseConnection): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ...coreImports(env, connection),
        EvaluationWorkersModule.forRoot(env),
        IngestionWorkersModule.forRoot(env),
        SourceWorkersModule.forRoot(env),
      ],
    };
  }
}

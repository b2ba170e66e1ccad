import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { coreImports } from './app.module';
import type { Env } from './config/env.schema';
import type { DatabaseConnection } from './database/database-connection';

/** BullMQ workers only, no HTTP: run as many of these processes, on as many machines, as the load needs. */
@Module({})
export class WorkerModule {
  static forRoot(env: Env, connection: DatabaseConnection): DynamicModule {
    return { module: WorkerModule, imports: [...coreImports(env, connection)] };
  }
}

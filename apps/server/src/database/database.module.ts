import { Global, Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Env } from '../config/env.schema';
import { embeddingDimensionFor } from '../providers/embedding-dimension';
import { DATABASE_CONNECTION } from './database-connection';
import type { DatabaseConnection } from './database-connection';
import { buildDataSourceOptions } from './data-source.options';
import { assertEmbeddingDimension, assertEmbeddingStorage } from './schema-check';

@Global()
@Module({})
export class DatabaseModule {
  /** The connection (embedded PGlite or a PostgreSQL URL) is opened before Nest boots and closed after. */
  static forRoot(connection: DatabaseConnection, env: Env): DynamicModule {
    const dimension = embeddingDimensionFor(env);
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...buildDataSourceOptions(connection, dimension, env.EMBEDDING_STORAGE),
            migrationsRun: env.DATABASE_MIGRATIONS_RUN,
            retryAttempts: 0,
          }),
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            try {
              await assertEmbeddingDimension(dataSource, dimension);
              await assertEmbeddingStorage(dataSource, env.EMBEDDING_STORAGE);
            } catch (error) {
              await dataSource.destroy();
              throw error;
            }
            return dataSource;
          },
        }),
      ],
      providers: [{ provide: DATABASE_CONNECTION, useValue: connection }],
      exports: [DATABASE_CONNECTION],
    };
  }
}

import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConnection } from './database-connection';
import type { EmbeddingStorage } from './embedding-storage';
import { ENTITIES } from './entities';
import { allMigrations } from './migrations';

/**
 * TypeORM options shared by the API, the worker, the migration CLI and the eval CLI. Never synchronize.
 * Pass env.EMBEDDING_STORAGE: the storage migration converts the vectors to it.
 */
export function buildDataSourceOptions(
  connection: DatabaseConnection,
  embeddingDimension: number,
  embeddingStorage: EmbeddingStorage = 'vector',
): DataSourceOptions {
  return {
    type: 'postgres',
    url: connection.url,
    entities: ENTITIES,
    migrations: allMigrations(embeddingDimension, embeddingStorage),
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    poolSize: connection.poolSize,
    extra: { max: connection.poolSize, connectionTimeoutMillis: 30_000 },
  };
}

import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConnection } from './database-connection';
import type { EmbeddingStorage } from './pgvector';
import { allMigrations } from './migrations';

/**
 * What the caller tells the database layer about the app: the entities it maps (each module's, composed
 * above this layer) and the chunks' vectors (the embedder's dimension, EMBEDDING_STORAGE).
 */
export interface DataSourceSchema {
  entities: NonNullable<DataSourceOptions['entities']>;
  embeddingDimension: number;
  /** The embedder's model id, which the chunks' vectors must come from (database/embedder-switch.ts). */
  embeddingModel: string;
  /** The storage migration converts the vectors to it. Default `vector`. */
  embeddingStorage?: EmbeddingStorage;
}

/** TypeORM options shared by the API, the worker, the migration CLI and the eval CLI. Never synchronize. */
export function dataSourceOptions(
  connection: DatabaseConnection,
  schema: Omit<DataSourceSchema, 'embeddingModel'>,
): DataSourceOptions {
  return {
    type: 'postgres',
    url: connection.url,
    entities: schema.entities,
    migrations: allMigrations(schema.embeddingDimension, schema.embeddingStorage ?? 'vector'),
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    poolSize: connection.poolSize,
    extra: { max: connection.poolSize, connectionTimeoutMillis: 30_000 },
  };
}

import type { DataSourceOptions } from 'typeorm';
import type { Env } from './config/env.schema';
import { dataSourceOptions } from './database/data-source.options';
import type { DataSourceSchema } from './database/data-source.options';
import type { DatabaseConnection } from './database/database-connection';
import { openDataSourceWith } from './database/open-data-source';
import type { OpenedDatabase } from './database/open-data-source';
import type { EmbeddingStorage } from './database/pgvector';
import { ENTITIES } from './entities';
import { embeddingDimensionFor, embeddingModelFor } from './providers/embedding-dimension';

export type { OpenedDatabase };

/** The app's schema for the configured embedder: every module's entities and the chunks' vectors. */
export function appSchema(env: Env): DataSourceSchema {
  return {
    entities: ENTITIES,
    embeddingDimension: embeddingDimensionFor(env),
    embeddingModel: embeddingModelFor(env),
    embeddingStorage: env.EMBEDDING_STORAGE,
  };
}

/** TypeORM options for the app's entities over `connection` (the benchmarks' own data sources). */
export function buildDataSourceOptions(
  connection: DatabaseConnection,
  embeddingDimension: number,
  embeddingStorage: EmbeddingStorage = 'vector',
): DataSourceOptions {
  return dataSourceOptions(connection, { entities: ENTITIES, embeddingDimension, embeddingStorage });
}

/**
 * The configured database with a data source over the app's entities, initialised and migrated unless
 * told otherwise — for the CLIs and the tests, which run outside Nest (see openDataSourceWith).
 */
export function openDataSource(
  env: Env,
  options: { migrate?: boolean; connection?: DatabaseConnection } = {},
): Promise<OpenedDatabase> {
  return openDataSourceWith(env, appSchema(env), options);
}

import { DataSource } from 'typeorm';
import type { Env } from '../../config/env.schema';
import { buildDataSourceOptions } from '../../database/data-source.options';
import { openDatabase } from '../../database/database-connection';
import type { DatabaseConnection } from '../../database/database-connection';
import { embeddingDimensionFor } from '../../providers/embedding-dimension';

export interface TestDatabase {
  connection: DatabaseConnection;
  dataSource: DataSource;
  close(): Promise<void>;
}

/** A fresh embedded PGlite (with pgvector) served on loopback, migrated unless told otherwise. */
export async function startTestDatabase(
  env: Env,
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  const connection = await openDatabase(env);
  const dataSource = new DataSource(
    buildDataSourceOptions(connection, embeddingDimensionFor(env), env.EMBEDDING_STORAGE),
  );
  await dataSource.initialize();
  if (options.migrate ?? true) await dataSource.runMigrations({ transaction: 'each' });
  return {
    connection,
    dataSource,
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      await connection.close();
    },
  };
}

import { DataSource } from 'typeorm';
import type { Env } from '../config/env.schema';
import { dataSourceOptions } from './data-source.options';
import type { DataSourceSchema } from './data-source.options';
import { openDatabase } from './database-connection';
import type { DatabaseConnection } from './database-connection';

export interface OpenedDatabase {
  connection: DatabaseConnection;
  dataSource: DataSource;
  /** Destroys the data source, then closes the connection (stops the embedded database). */
  close(): Promise<void>;
}

/**
 * The configured database (embedded PGlite unless DATABASE_URL is set) with a TypeORM data source for
 * `schema`, initialised and migrated unless told otherwise — for the CLIs and the tests, which run
 * outside Nest. A failure on the way closes what was opened. A connection opened by the caller (e.g. a
 * test's scratch database) may be handed in; it is then closed with the data source.
 */
export async function openDataSourceWith(
  env: Env,
  schema: DataSourceSchema,
  options: { migrate?: boolean; connection?: DatabaseConnection } = {},
): Promise<OpenedDatabase> {
  const connection = options.connection ?? (await openDatabase(env));
  const dataSource = new DataSource(dataSourceOptions(connection, schema));
  const close = async (): Promise<void> => {
    if (dataSource.isInitialized) await dataSource.destroy();
    await connection.close();
  };
  try {
    await dataSource.initialize();
    if (options.migrate ?? true) await dataSource.runMigrations({ transaction: 'each' });
  } catch (error) {
    await close();
    throw error;
  }
  return { connection, dataSource, close };
}

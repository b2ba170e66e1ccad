import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { exitOnBootFailure } from '../bootstrap/process-lifecycle';
import { loadEnv } from '../config/load-env';
import { buildDataSourceOptions } from '../database/data-source.options';
import { openDatabase } from '../database/database-connection';
import { embeddingDimensionFor } from '../providers/embedding-dimension';

/** `migrate up` applies pending migrations; `migrate down` reverts the last one. Same database as the server. */
async function main(direction: string | undefined): Promise<void> {
  if (direction !== 'up' && direction !== 'down') {
    throw new Error(`usage: migrate up|down (got ${direction ?? 'nothing'})`);
  }
  const env = loadEnv();
  const connection = await openDatabase(env);
  const dataSource = new DataSource(
    buildDataSourceOptions(connection, embeddingDimensionFor(env), env.EMBEDDING_STORAGE),
  );
  try {
    await dataSource.initialize();
    if (direction === 'up') {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      console.log(applied.length ? `Applied: ${applied.map((m) => m.name).join(', ')}` : 'Nothing to apply.');
    } else {
      await dataSource.undoLastMigration({ transaction: 'each' });
      console.log('Reverted the last migration.');
    }
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await connection.close();
  }
}

main(process.argv[2]).catch(exitOnBootFailure);

import 'reflect-metadata';
import { exitOnBootFailure } from '../bootstrap/process-lifecycle';
import { loadEnv } from '../config/load-env';
import { openDataSource } from '../app-data-source';

/** `migrate up` applies pending migrations; `migrate down` reverts the last one. Same database as the server. */
async function main(direction: string | undefined): Promise<void> {
  if (direction !== 'up' && direction !== 'down') {
    throw new Error(`usage: migrate up|down (got ${direction ?? 'nothing'})`);
  }
  const env = loadEnv();
  const database = await openDataSource(env, { migrate: false });
  const { dataSource } = database;
  try {
    if (direction === 'up') {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      console.log(applied.length ? `Applied: ${applied.map((m) => m.name).join(', ')}` : 'Nothing to apply.');
    } else {
      await dataSource.undoLastMigration({ transaction: 'each' });
      console.log('Reverted the last migration.');
    }
  } finally {
    await database.close();
  }
}

main(process.argv[2]).catch(exitOnBootFailure);

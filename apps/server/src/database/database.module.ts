import { Global, Inject, Module } from '@nestjs/common';
import type { DynamicModule, Provider } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Env } from '../config/env.schema';
import { DATABASE_CONNECTION } from './database-connection';
import type { DatabaseConnection } from './database-connection';
import { dataSourceOptions } from './data-source.options';
import type { DataSourceSchema } from './data-source.options';
import { adoptEmbedder } from './embedder-switch';
import { assertEmbedder, assertEmbeddingStorage } from './schema-check';

/** The data source the search ports read from: the read replica (DATABASE_READ_URL), else the primary. */
export const SEARCH_DATA_SOURCE = Symbol('SEARCH_DATA_SOURCE');
export const InjectSearchDataSource = (): ParameterDecorator => Inject(SEARCH_DATA_SOURCE);

const READ_REPLICA = 'read-replica';

@Global()
@Module({})
export class DatabaseModule {
  /**
   * The connection (embedded PGlite or a PostgreSQL URL) is opened before Nest boots and closed after.
   * `schema` (the entities and the chunks' vectors) comes from the app that composes the modules.
   */
  static forRoot(connection: DatabaseConnection, env: Env, schema: DataSourceSchema): DynamicModule {
    const dimension = schema.embeddingDimension;
    const readUrl = env.DATABASE_READ_URL;
    // A hot standby is read-only and replays the primary's schema: no migrations, no schema checks.
    const replica = readUrl
      ? [
          TypeOrmModule.forRootAsync({
            name: READ_REPLICA,
            useFactory: () => ({
              ...dataSourceOptions({ ...connection, url: readUrl }, schema),
              // Named here too: the module finds its data source by the options' name when it shuts down.
              name: READ_REPLICA,
              migrations: [],
              migrationsRun: false,
              retryAttempts: 0,
            }),
          }),
        ]
      : [];
    const search: Provider = {
      provide: SEARCH_DATA_SOURCE,
      useExisting: readUrl ? getDataSourceToken(READ_REPLICA) : DataSource,
    };
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...dataSourceOptions(connection, schema),
            migrationsRun: env.DATABASE_MIGRATIONS_RUN,
            retryAttempts: 0,
          }),
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            try {
              const embedder = { model: schema.embeddingModel, dimension };
              // The migrating process adopts a new embedder (re-embeds); any other refuses to differ.
              if (env.DATABASE_MIGRATIONS_RUN) await adoptEmbedder(dataSource, embedder);
              else await assertEmbedder(dataSource, embedder);
              await assertEmbeddingStorage(dataSource, env.EMBEDDING_STORAGE);
            } catch (error) {
              await dataSource.destroy();
              throw error;
            }
            return dataSource;
          },
        }),
        ...replica,
      ],
      providers: [{ provide: DATABASE_CONNECTION, useValue: connection }, search],
      exports: [DATABASE_CONNECTION, SEARCH_DATA_SOURCE],
    };
  }
}

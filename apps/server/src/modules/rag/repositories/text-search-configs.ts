import type { DataSource } from 'typeorm';
import {
  CORPUS_LANGUAGE_COUNTS_SQL,
  CORPUS_LANGUAGES_SQL,
  CORPUS_TEXT_CONFIGS_SQL,
} from './sql/corpus-text-configs.sql';

const available = new WeakMap<DataSource, Promise<ReadonlySet<string>>>();

/** The text-search configurations this database has (PostgreSQL versions differ); read once. */
export function textSearchConfigs(dataSource: DataSource): Promise<ReadonlySet<string>> {
  let configs = available.get(dataSource);
  if (!configs) {
    configs = dataSource
      .query(`SELECT cfgname FROM pg_catalog.pg_ts_config`)
      .then((rows: { cfgname: string }[]) => new Set(rows.map((row) => row.cfgname)));
    configs.catch(() => available.delete(dataSource));
    available.set(dataSource, configs);
  }
  return configs;
}

/** The configurations the indexed documents' chunks were analysed with. */
export async function corpusTextConfigs(dataSource: DataSource): Promise<string[]> {
  const rows: { textConfig: string }[] = await dataSource.query(CORPUS_TEXT_CONFIGS_SQL);
  return rows.map((row) => row.textConfig);
}

/** The languages of the documents (given or detected) of `collectionIds` (null: every collection). */
export async function corpusLanguages(
  dataSource: DataSource,
  collectionIds: readonly string[] | null,
): Promise<string[]> {
  const rows: { language: string }[] = await dataSource.query(CORPUS_LANGUAGES_SQL, [collectionIds]);
  return rows.map((row) => row.language);
}

/** How many documents hold each language (given or detected); a language no document holds is absent. */
export async function corpusLanguageCounts(dataSource: DataSource): Promise<Record<string, number>> {
  const rows: { language: string; documents: number }[] = await dataSource.query(CORPUS_LANGUAGE_COUNTS_SQL);
  return Object.fromEntries(rows.map((row) => [row.language, Number(row.documents)]));
}

/** A database of the bench's own on a shared PostgreSQL (`name` is made by the bench: a plain identifier). */
export const createDatabaseSql = (name: string) => `CREATE DATABASE ${name}`;
export const dropDatabaseSql = (name: string) => `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`;

import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The kinds of source, as the sources contract lists them (libs/shared sources.ts). */
const KINDS = ['folder', 'git', 'website'];

/**
 * Sources: a server folder, a Git repository or a website that a collection keeps in sync with, instead
 * of files someone uploads.
 *
 * - `sources`: the kind, its configuration (validated by the contract), an optional schedule, when a
 *   sync was last asked for and not yet started (`sync_requested_at`), and `cursor`, what the last
 *   complete sync reached (a Git source's commit).
 * - `source_items`: one row per file or page the source brought in, keyed by its path or URL, with what
 *   tells a later sync whether it changed without reading it (`fingerprint`: a folder file's size and
 *   modification time, a Git blob id, a page's ETag or Last-Modified), the sha256 of its bytes
 *   (`content_hash`, null until the item was indexed once), the document made of it, and `error`, why
 *   the version `fingerprint` names could not be indexed (a web page also keeps its ETag, Last-Modified
 *   and the links it holds, so a 304 still tells the crawl where to go next) (a later sync does not try it again until it
 *   changes).
 * - `source_sync_runs`: one row per sync, with its report.
 *
 * A document made from a source item carries `source_id`. Its identity is the item, not its bytes: two
 * files of a repository may hold the same bytes (and an upload may too), so the rule "a collection holds
 * the same bytes once" now applies to uploaded documents only (the unique index is partial, under the same
 * name). A source deleted with "keep its documents" leaves them as uploaded ones (source_id set null by the
 * service, after removing those that would repeat the bytes of another).
 */
export class Sources1764500190000 implements MigrationInterface {
  name = 'Sources1764500190000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const kinds = KINDS.map((kind) => `'${kind}'`).join(', ');
    await queryRunner.query(`
      CREATE TABLE sources (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        collection_id uuid NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
        kind text NOT NULL CHECK (kind IN (${kinds})),
        config jsonb NOT NULL,
        schedule_minutes integer CHECK (schedule_minutes IS NULL OR schedule_minutes BETWEEN 5 AND 10080),
        next_sync_at timestamptz,
        sync_requested_at timestamptz,
        cursor text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX sources_collection_idx ON sources (collection_id, created_at, id)`);
    await queryRunner.query(
      `CREATE INDEX sources_due_idx ON sources (next_sync_at) WHERE next_sync_at IS NOT NULL`,
    );

    await queryRunner.query(`
      CREATE TABLE source_sync_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        source_id uuid NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('running', 'succeeded', 'failed', 'interrupted')),
        trigger text NOT NULL CHECK (trigger IN ('manual', 'schedule')),
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        duration_ms integer,
        added integer NOT NULL DEFAULT 0,
        updated integer NOT NULL DEFAULT 0,
        unchanged integer NOT NULL DEFAULT 0,
        deleted integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        failures jsonb NOT NULL DEFAULT '[]'::jsonb,
        error text,
        cursor_before text,
        cursor_after text
      )`);
    await queryRunner.query(
      `CREATE INDEX source_sync_runs_source_idx ON source_sync_runs (source_id, started_at DESC, id)`,
    );

    await queryRunner.query(
      `ALTER TABLE documents ADD COLUMN source_id uuid REFERENCES sources (id) ON DELETE SET NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX documents_source_idx ON documents (source_id) WHERE source_id IS NOT NULL`,
    );

    await queryRunner.query(`
      CREATE TABLE source_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        source_id uuid NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
        key text NOT NULL,
        fingerprint text,
        content_hash text,
        document_id uuid REFERENCES documents (id) ON DELETE SET NULL,
        etag text,
        last_modified text,
        commit text,
        link text,
        links jsonb,
        error text,
        synced_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT source_items_source_key UNIQUE (source_id, key)
      )`);
    await queryRunner.query(
      `CREATE INDEX source_items_document_idx ON source_items (document_id) WHERE document_id IS NOT NULL`,
    );

    await queryRunner.query(`ALTER TABLE documents DROP CONSTRAINT documents_collection_hash_key`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX documents_collection_hash_key ON documents (collection_id, content_hash)
       WHERE source_id IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Documents of sources go with them: without their source they could repeat an upload's bytes.
    await queryRunner.query(`DELETE FROM documents WHERE source_id IS NOT NULL`);
    await queryRunner.query(`DROP INDEX documents_collection_hash_key`);
    await queryRunner.query(
      `ALTER TABLE documents ADD CONSTRAINT documents_collection_hash_key UNIQUE (collection_id, content_hash)`,
    );
    await queryRunner.query(`DROP TABLE source_items`);
    await queryRunner.query(`ALTER TABLE documents DROP COLUMN source_id`);
    await queryRunner.query(`DROP TABLE source_sync_runs`);
    await queryRunner.query(`DROP TABLE sources`);
  }
}

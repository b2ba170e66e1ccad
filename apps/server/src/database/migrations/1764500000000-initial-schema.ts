import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents and their chunks. The chunk's `embedding` column takes the dimension of the configured
 * embedder; `tsv` is generated from the text that is indexed (title and heading path + chunk text).
 */
export function createInitialSchemaMigration(dimension: number): new () => MigrationInterface {
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > 16000) {
    throw new RangeError(`embedding dimension must be an integer in 1..16000, got ${dimension}`);
  }
  return class InitialSchema1764500000000 implements MigrationInterface {
    name = 'InitialSchema1764500000000';

    async up(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS vector`);
      await queryRunner.query(`
        CREATE TABLE documents (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          title text NOT NULL,
          source_name text,
          mime_type text,
          content_hash text NOT NULL,
          external_id text,
          status text NOT NULL DEFAULT 'queued'
            CHECK (status IN ('queued', 'parsing', 'chunking', 'embedding', 'indexed', 'failed', 'cancelled')),
          error text,
          chunk_count integer NOT NULL DEFAULT 0,
          byte_size bigint NOT NULL DEFAULT 0,
          metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          CONSTRAINT documents_content_hash_key UNIQUE (content_hash)
        )`);
      await queryRunner.query(`CREATE INDEX documents_created_at_idx ON documents (created_at DESC, id)`);
      await queryRunner.query(`CREATE INDEX documents_external_id_idx ON documents (external_id)`);
      await queryRunner.query(`
        CREATE TABLE chunks (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
          ordinal integer NOT NULL,
          text text NOT NULL,
          index_text text NOT NULL,
          heading_path text[] NOT NULL DEFAULT '{}',
          anchor text,
          span_start integer NOT NULL,
          span_end integer NOT NULL,
          embedding vector(${dimension}),
          embedding_model text,
          tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, index_text)) STORED,
          created_at timestamptz NOT NULL DEFAULT now(),
          CONSTRAINT chunks_document_ordinal_key UNIQUE (document_id, ordinal),
          CONSTRAINT chunks_span_check CHECK (span_start >= 0 AND span_end >= span_start)
        )`);
      await queryRunner.query(`CREATE INDEX chunks_tsv_gin_idx ON chunks USING gin (tsv)`);
      await queryRunner.query(
        `CREATE INDEX chunks_embedding_hnsw_idx ON chunks USING hnsw (embedding vector_cosine_ops)`,
      );
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query(`DROP TABLE IF EXISTS chunks`);
      await queryRunner.query(`DROP TABLE IF EXISTS documents`);
    }
  };
}

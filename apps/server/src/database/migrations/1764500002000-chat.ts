import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Conversations, their messages, and the retrieval trace stored with every answer. `seq` keeps the
 * messages of a conversation in the order they were written. `owner_key_id` is left null for now:
 * it is where per-user ownership (API keys) will hang, and the list is indexed by it already.
 */
export class Chat1764500002000 implements MigrationInterface {
  name = 'Chat1764500002000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE conversations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        title text NOT NULL,
        owner_key_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX conversations_updated_at_idx ON conversations (updated_at DESC, id)`,
    );
    await queryRunner.query(
      `CREATE INDEX conversations_owner_updated_idx ON conversations (owner_key_id, updated_at DESC, id)`,
    );
    await queryRunner.query(`
      CREATE TABLE messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('user', 'assistant')),
        content text NOT NULL,
        status text NOT NULL DEFAULT 'complete' CHECK (status IN ('complete', 'failed', 'cancelled')),
        reply_to_id uuid REFERENCES messages (id) ON DELETE SET NULL,
        source text CHECK (source IN ('documents', 'general-knowledge')),
        generator text CHECK (generator IN ('llm', 'extractive', 'none')),
        not_found boolean NOT NULL DEFAULT false,
        citations jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(citations) = 'array'),
        dropped_markers integer[] NOT NULL DEFAULT '{}',
        uncited boolean NOT NULL DEFAULT false,
        model text,
        usage jsonb,
        error text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX messages_conversation_seq_idx ON messages (conversation_id, seq)`);
    await queryRunner.query(`CREATE INDEX messages_reply_to_idx ON messages (reply_to_id)`);
    await queryRunner.query(`
      CREATE TABLE retrieval_traces (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        message_id uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        query text NOT NULL,
        standalone_query text NOT NULL,
        rewrite text NOT NULL CHECK (rewrite IN ('none', 'llm', 'history')),
        settings jsonb,
        expansions jsonb,
        hyde jsonb,
        below_threshold boolean NOT NULL DEFAULT false,
        retrieved jsonb NOT NULL DEFAULT '[]'::jsonb,
        prompt_version text,
        model text,
        generator text NOT NULL CHECK (generator IN ('llm', 'extractive', 'none')),
        source text NOT NULL CHECK (source IN ('documents', 'general-knowledge')),
        usage jsonb,
        timings jsonb NOT NULL DEFAULT '{}'::jsonb,
        not_found boolean NOT NULL DEFAULT false,
        uncited boolean NOT NULL DEFAULT false,
        dropped_markers integer[] NOT NULL DEFAULT '{}',
        warnings jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT retrieval_traces_message_key UNIQUE (message_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS retrieval_traces`);
    await queryRunner.query(`DROP TABLE IF EXISTS messages`);
    await queryRunner.query(`DROP TABLE IF EXISTS conversations`);
  }
}

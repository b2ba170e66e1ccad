import { seedDocuments } from './helpers/seed-documents';
import { startTestDatabase } from './helpers/test-database';
import type { TestDatabase } from './helpers/test-database';
import { TEST_BACKEND } from './helpers/test-backend';
import { testEnv } from './helpers/test-env';

async function indexes(db: TestDatabase): Promise<Record<string, string>> {
  const rows: { indexname: string; indexdef: string }[] = await db.dataSource.query(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'`,
  );
  return Object.fromEntries(rows.map((row) => [row.indexname, row.indexdef]));
}

async function tables(db: TestDatabase): Promise<string[]> {
  const rows: { tablename: string }[] = await db.dataSource.query(
    `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations' ORDER BY tablename`,
  );
  return rows.map((row) => row.tablename);
}

describe(`migrations on a fresh database (${TEST_BACKEND})`, () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await startTestDatabase(testEnv(), { migrate: false });
  });

  afterAll(async () => {
    await db.close();
  });

  it('go up, all the way down, and up again', async () => {
    const applied = await db.dataSource.runMigrations({ transaction: 'each' });
    expect(applied.map((m) => m.name)).toEqual([
      'InitialSchema1764500000000',
      'Bm25Index1764500000100',
      'EmbeddingCache1764500000200',
      'Chat1764500002000',
      'QuestionBanks1764500003000',
      'EmbeddingStorage1764500004000',
      'ApiKeys1764500005000',
      'Bm25PostingsLength1764500006000',
      'Bm25WriterSlots1764500010000',
      'LanguageAnalysis1764500020000',
      'ChunkPages1764500030000',
      'Answerability1764500040000',
      'ChunkAnalysisOnce1764500050000',
      'AdaptiveExpansion1764500060000',
      'Ablations1764500070000',
      'RerankerModels1764500080000',
      'FollowUpReason1764500090000',
      'CleanDocumentTitles1764500091000',
      'ConversationSearch1764500097000',
      'LanguageAnalysisMeasured1764500098000',
      'FollowUpAloneLeads1764500110000',
      'CleanHeadingPaths1764500130000',
      'Collections1764500140000',
      'KeyGrants1764500150000',
      'RerankerPerCollection1764500160000',
      'Feedback1764500170000',
      'Bm25TermBounds1764500180000',
      'Sources1764500190000',
      'EmbedderState1764500200000',
      'Bm25PostingsCovering1764500210000',
    ]);
    expect(await tables(db)).toEqual([
      'ablations',
      'api_key_grants',
      'api_keys',
      'bm25_corpus_slots',
      'bm25_postings',
      'bm25_term_bounds',
      'bm25_term_slots',
      'chunks',
      'collections',
      'conversations',
      'documents',
      'embedder_state',
      'embedding_cache',
      'eval_runs',
      'message_feedback',
      'messages',
      'question_bank_items',
      'question_banks',
      'question_templates',
      'reranker_models',
      'retrieval_traces',
      'source_items',
      'source_sync_runs',
      'sources',
    ]);

    for (let i = 0; i < applied.length; i++) await db.dataSource.undoLastMigration({ transaction: 'each' });
    expect(await tables(db)).toEqual([]);

    const again = await db.dataSource.runMigrations({ transaction: 'each' });
    expect(again).toHaveLength(applied.length);
  });

  it('creates the HNSW (cosine) and GIN indexes and a vector column of the embedder dimension', async () => {
    const defs = await indexes(db);
    expect(defs['chunks_embedding_hnsw_idx']).toMatch(/USING hnsw \(embedding vector_cosine_ops\)/);
    expect(defs['chunks_tsv_gin_idx']).toMatch(/USING gin \(tsv\)/);
    const [column] = await db.dataSource.query(
      `SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
       WHERE attrelid = 'chunks'::regclass AND attname = 'embedding'`,
    );
    expect(column.type).toBe('vector(512)');
    const [extension] = await db.dataSource.query(
      `SELECT extname FROM pg_extension WHERE extname = 'vector'`,
    );
    expect(extension?.extname).toBe('vector');
  });

  it('generates the tsvector from the indexed text with English stemming and stop words', async () => {
    const [doc] = await db.dataSource.query(
      `INSERT INTO documents (title, content_hash) VALUES ('Runbook', 'hash-1') RETURNING id`,
    );
    await db.dataSource.query(
      `INSERT INTO chunks (document_id, ordinal, text, index_text, span_start, span_end)
       VALUES ($1, 0, 'The runners were running', 'The runners were running', 0, 24)`,
      [doc.id],
    );
    const [chunk] = await db.dataSource.query(`SELECT tsv::text AS tsv, lexical_length FROM chunks`);
    expect(chunk.tsv).toBe("'run':4 'runner':2");
    expect(chunk.lexical_length).toBe(2);
  });

  it("generates it from the chunk's own configuration and segmented text when it has them", async () => {
    const [doc] = await db.dataSource.query(
      `INSERT INTO documents (title, content_hash) VALUES ('Laufen', 'hash-2') RETURNING id`,
    );
    await db.dataSource.query(
      `INSERT INTO chunks (document_id, ordinal, text, index_text, span_start, span_end, text_config, lexical_text)
       VALUES ($1, 0, 'Die Läufer liefen 超级碗', 'Die Läufer liefen 超级碗', 0, 20, 'german',
               'Die Läufer liefen 超级 碗')`,
      [doc.id],
    );
    const [chunk] = await db.dataSource.query(
      `SELECT tsv::text AS tsv, lexical_length FROM chunks WHERE document_id = $1`,
      [doc.id],
    );
    expect(chunk.tsv).toBe("'lauf':2 'lief':3 '碗':5 '超级':4");
    expect(chunk.lexical_length).toBe(4);
  });

  it('follows a change of the text or its configuration, and overwrites what a statement writes itself', async () => {
    const [doc] = await db.dataSource.query(
      `INSERT INTO documents (title, content_hash) VALUES ('Queues', 'hash-3') RETURNING id`,
    );
    await db.dataSource.query(
      `INSERT INTO chunks (document_id, ordinal, text, index_text, span_start, span_end, tsv, lexical_length)
       VALUES ($1, 0, 'Workers retry failed jobs', 'Workers retry failed jobs', 0, 25, 'forged', 99)`,
      [doc.id],
    );
    const read = async (): Promise<{ tsv: string; lexical_length: number }> =>
      (
        await db.dataSource.query(
          `SELECT tsv::text AS tsv, lexical_length FROM chunks WHERE document_id = $1`,
          [doc.id],
        )
      )[0];
    expect(await read()).toEqual({ tsv: "'fail':3 'job':4 'retri':2 'worker':1", lexical_length: 4 });

    await db.dataSource.query(`UPDATE chunks SET index_text = 'Jobs wait' WHERE document_id = $1`, [doc.id]);
    expect(await read()).toEqual({ tsv: "'job':1 'wait':2", lexical_length: 2 });
    await db.dataSource.query(`UPDATE chunks SET text_config = 'simple' WHERE document_id = $1`, [doc.id]);
    expect(await read()).toEqual({ tsv: "'jobs':1 'wait':2", lexical_length: 2 });
    await db.dataSource.query(`UPDATE chunks SET tsv = 'forged', lexical_length = 7 WHERE document_id = $1`, [
      doc.id,
    ]);
    expect(await read()).toEqual({ tsv: "'jobs':1 'wait':2", lexical_length: 2 });
  });

  it('re-cleans stored heading paths, in chunks and in stored citations, and leaves clean ones alone', async () => {
    const [doc] = await db.dataSource.query(
      `INSERT INTO documents (title, content_hash) VALUES ('prom-client', 'hash-headings') RETURNING id`,
    );
    // Heading paths as they were stored before headings were cleaned like titles.
    const stored = [
      [
        'Prometheus client for node.js ![Actions Status](https://github.com/siimon/prom-client/actions)',
        'Usage',
      ],
      [
        'YAML <a href="https://www.npmjs.com/package/yaml"><img align="right" src="https://x/yaml.svg" /></a>',
      ],
      ['pino-http&nbsp;&nbsp;![Build Status](https://github.com/pinojs/pino-http/actions)', 'API'],
      ['Struct Vec<T>', 'impl<T> Clone for Vec<T>'],
      ['CLI', '--port'],
      // `*not emphasis*` was stored from `\*not emphasis\*`: a part without markup is not cleaned again.
      ['Badges ![CI](https://ci)', '*not emphasis*'],
    ];
    for (const [ordinal, path] of stored.entries()) {
      await db.dataSource.query(
        `INSERT INTO chunks (document_id, ordinal, text, index_text, heading_path, span_start, span_end)
         VALUES ($1, $2, 'Some words here.', 'Some words here.', $3, 0, 16)`,
        [doc.id, ordinal, path],
      );
    }
    const [conversation] = await db.dataSource.query(
      `INSERT INTO conversations (title) VALUES ('Metrics') RETURNING id`,
    );
    const citation = (headingPath: string[], marker: number) => ({
      marker,
      chunkId: '00000000-0000-0000-0000-000000000001',
      documentId: doc.id,
      title: 'prom-client',
      headingPath,
      anchor: null,
      span: { start: 0, end: 16 },
    });
    const [message] = await db.dataSource.query(
      `INSERT INTO messages (conversation_id, role, content, citations) VALUES ($1, 'assistant', 'Words [1] [2]', $2)
       RETURNING id`,
      [conversation.id, JSON.stringify([citation(stored[0], 1), citation(stored[3], 2)])],
    );

    for (let i = 0; i < 9; i++) await db.dataSource.undoLastMigration({ transaction: 'each' });
    const applied = await db.dataSource.runMigrations({ transaction: 'each' });
    expect(applied.map((m) => m.name)).toEqual([
      'CleanHeadingPaths1764500130000',
      'Collections1764500140000',
      'KeyGrants1764500150000',
      'RerankerPerCollection1764500160000',
      'Feedback1764500170000',
      'Bm25TermBounds1764500180000',
      'Sources1764500190000',
      'EmbedderState1764500200000',
      'Bm25PostingsCovering1764500210000',
    ]);

    const chunks: { heading_path: string[] }[] = await db.dataSource.query(
      `SELECT heading_path FROM chunks WHERE document_id = $1 ORDER BY ordinal`,
      [doc.id],
    );
    expect(chunks.map((c) => c.heading_path)).toEqual([
      ['Prometheus client for node.js', 'Usage'],
      ['YAML'],
      ['pino-http', 'API'],
      ['Struct Vec<T>', 'impl<T> Clone for Vec<T>'],
      ['CLI', '--port'],
      ['Badges', '*not emphasis*'],
    ]);
    const [{ citations }] = await db.dataSource.query(`SELECT citations FROM messages WHERE id = $1`, [
      message.id,
    ]);
    expect(citations).toEqual([
      citation(['Prometheus client for node.js', 'Usage'], 1),
      citation(['Struct Vec<T>', 'impl<T> Clone for Vec<T>'], 2),
    ]);
  });

  it('re-analyses Hindi chunks with simple and indexes a text not in NFC by its NFC form', async () => {
    const [{ hindi }] = await db.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_ts_config WHERE cfgname = 'hindi') AS hindi`,
    );
    const config = hindi ? 'hindi' : 'simple';
    const [doc] = await db.dataSource.query(
      `INSERT INTO documents (title, content_hash, language, text_config) VALUES ('Hindi', 'hash-4', 'hi', $1)
       RETURNING id`,
      [config],
    );
    // ज़रा written as JA + NUKTA (NFC) and as the precomposed ZA (U+095B, not NFC).
    const text = 'उसने \u095Bरा दिए';
    await db.dataSource.query(
      `INSERT INTO chunks (document_id, ordinal, text, index_text, span_start, span_end, text_config)
       VALUES ($1, 0, $2, $2, 0, 10, $3::regconfig)`,
      [doc.id, text, config],
    );
    // Down through the measured-analysis migration (the ones after it first), then up again.
    for (let i = 0; i <= LATER.length - 1 - LATER.indexOf('LanguageAnalysisMeasured1764500098000'); i++)
      await db.dataSource.undoLastMigration({ transaction: 'each' });
    await db.dataSource.runMigrations({ transaction: 'each' });
    const [chunk] = await db.dataSource.query(
      `SELECT text_config::text, lexical_text, tsv::text FROM chunks WHERE document_id = $1`,
      [doc.id],
    );
    expect(chunk.text_config).toBe('simple');
    expect(chunk.lexical_text).toBe('उसने \u091C\u093Cरा दिए');
    expect(chunk.tsv).toBe("'उसने':1 '\u091C\u093Cरा':2 'दिए':3");
    const [document] = await db.dataSource.query(`SELECT text_config FROM documents WHERE id = $1`, [doc.id]);
    expect(document.text_config).toBe('simple');
    const terms: { term: string }[] = await db.dataSource.query(
      `SELECT term FROM bm25_postings WHERE chunk_id IN (SELECT id FROM chunks WHERE document_id = $1)
       ORDER BY term`,
      [doc.id],
    );
    expect(terms.map((row) => row.term).sort()).toEqual(['उसने', 'दिए', '\u091C\u093Cरा'].sort());
  });
});

/** The migrations after the postings-length one, in order. */
const LATER = [
  'Bm25WriterSlots1764500010000',
  'LanguageAnalysis1764500020000',
  'ChunkPages1764500030000',
  'Answerability1764500040000',
  'ChunkAnalysisOnce1764500050000',
  'AdaptiveExpansion1764500060000',
  'Ablations1764500070000',
  'RerankerModels1764500080000',
  'FollowUpReason1764500090000',
  'CleanDocumentTitles1764500091000',
  'ConversationSearch1764500097000',
  'LanguageAnalysisMeasured1764500098000',
  'FollowUpAloneLeads1764500110000',
  'CleanHeadingPaths1764500130000',
  'Collections1764500140000',
  'KeyGrants1764500150000',
  'RerankerPerCollection1764500160000',
  'Feedback1764500170000',
  'Bm25TermBounds1764500180000',
  'Sources1764500190000',
  'EmbedderState1764500200000',
  'Bm25PostingsCovering1764500210000',
];

describe('the BM25 postings-length migration over an existing index', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await startTestDatabase(testEnv());
  });

  afterAll(async () => {
    await db.close();
  });

  const postings = (): Promise<{ term: string; chunk_id: string; tf: number }[]> =>
    db.dataSource.query(`SELECT term, chunk_id, tf FROM bm25_postings ORDER BY term, chunk_id`);

  it('carries every posting over with its chunk length, keys and cascade, and back down again', async () => {
    const [failover] = await seedDocuments(db.dataSource, null, [
      { title: 'Failover', text: 'Promote the replica during failover; the replica becomes the primary.' },
      { title: 'Backups', text: 'Base backups and WAL archiving allow point in time recovery.' },
    ]);
    const before = await postings();
    expect(before.length).toBeGreaterThan(10);

    // The later migrations first (answerability, chunk pages, language analysis, writer slots): none of
    // them moves a lexeme, a length or a statistic either way.
    for (let i = 0; i < LATER.length; i++) {
      await db.dataSource.undoLastMigration({ transaction: 'each' });
      expect(await postings()).toEqual(before);
    }
    await db.dataSource.undoLastMigration({ transaction: 'each' });
    expect(await postings()).toEqual(before);
    const [{ columns }] = await db.dataSource.query(
      `SELECT count(*)::int AS columns FROM information_schema.columns
       WHERE table_name = 'bm25_postings' AND column_name = 'chunk_length'`,
    );
    expect(columns).toBe(0);
    // Written while the column is gone, by the trigger of that time: carried over too.
    const [caching] = await db.dataSource.query(
      `INSERT INTO documents (title, content_hash) VALUES ('Caching', 'hash-caching') RETURNING id`,
    );
    await db.dataSource.query(
      `INSERT INTO chunks (document_id, ordinal, text, index_text, span_start, span_end)
       VALUES ($1, 0, 'Redis caches sessions and queues.', 'Caching\n\nRedis caches sessions and queues.', 0, 33)`,
      [caching.id],
    );
    const beforeUp = await postings();

    const applied = await db.dataSource.runMigrations({ transaction: 'each' });
    expect(applied.map((m) => m.name)).toEqual(['Bm25PostingsLength1764500006000', ...LATER]);
    expect(await postings()).toEqual(beforeUp);
    const [{ wrong }] = await db.dataSource.query(
      `SELECT count(*)::int AS wrong FROM bm25_postings p JOIN chunks c ON c.id = p.chunk_id
       WHERE p.chunk_length <> c.lexical_length`,
    );
    expect(wrong).toBe(0);
    const constraints: { conname: string }[] = await db.dataSource.query(
      `SELECT conname FROM pg_constraint WHERE conrelid = 'bm25_postings'::regclass AND contype <> 'n' ORDER BY conname`,
    );
    expect(constraints.map((c) => c.conname)).toEqual([
      'bm25_postings_chunk_id_fkey',
      'bm25_postings_pkey',
      'bm25_postings_tf_check',
    ]);
    // The key carries tf and length, so a term's postings are read from the index alone once vacuumed.
    const [{ key }] = await db.dataSource.query(
      `SELECT pg_get_indexdef('bm25_postings_pkey'::regclass) AS key`,
    );
    expect(key).toMatch(/\(collection_id, term, chunk_id\) INCLUDE \(tf, chunk_length\)/);
    await db.dataSource.query(`VACUUM bm25_postings`);
    const plan: { 'QUERY PLAN': string }[] = await db.dataSource.transaction(async (manager) => {
      await manager.query(`SET LOCAL enable_seqscan = off`);
      await manager.query(`SET LOCAL enable_bitmapscan = off`);
      return manager.query(
        `EXPLAIN (COSTS OFF) SELECT chunk_id, tf, chunk_length FROM bm25_postings
         WHERE collection_id = default_collection_id() AND term = 'redi'`,
      );
    });
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toMatch(
      /Index Only Scan using bm25_postings_pkey/,
    );
    expect((await indexes(db))['bm25_postings_chunk_idx']).toMatch(/\(chunk_id\)/);

    await db.dataSource.query(`DELETE FROM documents WHERE id = $1`, [failover]);
    const [{ orphans }] = await db.dataSource.query(
      `SELECT count(*)::int AS orphans FROM bm25_postings p LEFT JOIN chunks c ON c.id = p.chunk_id
       WHERE c.id IS NULL`,
    );
    expect(orphans).toBe(0);
    const [{ kept, recount }] = await db.dataSource.query(
      `SELECT (SELECT count(*) FROM bm25_postings)::int AS kept,
              (SELECT count(*) FROM chunks, unnest(tsv))::int AS recount`,
    );
    expect(kept).toBe(recount);
  });
});

describe(`the collections migration (${TEST_BACKEND})`, () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await startTestDatabase(testEnv());
  });

  afterAll(async () => {
    await db.close();
  });

  /** Each collection's N, total length and df of `term`, from the statistics the triggers keep. */
  const statistics = async (term: string) =>
    (
      await db.dataSource.query(
        `SELECT s.collection_id AS id, sum(s.chunk_count)::int AS n, sum(s.total_length)::int AS length,
                (SELECT coalesce(sum(t.df), 0)::int FROM bm25_term_slots t
                 WHERE t.collection_id = s.collection_id AND t.term = $1) AS df
         FROM bm25_corpus_slots s GROUP BY s.collection_id ORDER BY s.collection_id`,
        [term],
      )
    ).filter((row: { n: number }) => row.n !== 0);

  /** What the triggers keep, counted again from the chunks: equal whenever the triggers are exact. */
  const recount = async (term: string) =>
    db.dataSource.query(
      `SELECT c.collection_id AS id, count(*)::int AS n, sum(c.lexical_length)::int AS length,
              count(*) FILTER (WHERE EXISTS (SELECT 1 FROM unnest(c.tsv) t WHERE t.lexeme = $1))::int AS df
       FROM chunks c GROUP BY c.collection_id ORDER BY c.collection_id`,
      [term],
    );

  it('puts a single library into "Default", keeps statistics per collection, follows a move, and reverts', async () => {
    // A single library, as it was before collections: documents (indexed by today's code, then taken
    // down to the schema of their day), a bank, a conversation.
    const [failover, backups] = await seedDocuments(db.dataSource, null, [
      { title: 'Failover', text: 'Promote the replica during failover; the replica becomes the primary.' },
      {
        title: 'Backups',
        text: 'Base backups and WAL archiving allow point in time recovery of the replica.',
      },
    ]);
    for (let i = 0; i < 8; i++) await db.dataSource.undoLastMigration({ transaction: 'each' });
    const [bank] = await db.dataSource.query(`INSERT INTO question_banks (name) VALUES ('Ops') RETURNING id`);
    const [alice] = await db.dataSource.query(
      `INSERT INTO api_keys (name, role, key_hash, key_prefix) VALUES ('Alice', 'user', 'hash-alice', 'alic')
       RETURNING id`,
    );
    const [conversation] = await db.dataSource.query(
      `INSERT INTO conversations (title) VALUES ('Failover') RETURNING id`,
    );
    const postingsBefore = await db.dataSource.query(
      `SELECT term, chunk_id, tf, chunk_length FROM bm25_postings ORDER BY term, chunk_id`,
    );

    const applied = await db.dataSource.runMigrations({ transaction: 'each' });
    expect(applied.map((m) => m.name)).toEqual([
      'Collections1764500140000',
      'KeyGrants1764500150000',
      'RerankerPerCollection1764500160000',
      'Feedback1764500170000',
      'Bm25TermBounds1764500180000',
      'Sources1764500190000',
      'EmbedderState1764500200000',
      'Bm25PostingsCovering1764500210000',
    ]);
    // The term bounds are filled from the postings already there: each term's largest tf and smallest
    // length per tf, in every collection.
    const [{ unbounded }] = await db.dataSource.query(
      `SELECT count(*)::int AS unbounded FROM (
         SELECT p.collection_id, p.term FROM bm25_postings p
         LEFT JOIN bm25_term_bounds b ON b.collection_id = p.collection_id AND b.term = p.term
         GROUP BY p.collection_id, p.term
         HAVING max(b.max_tf) IS DISTINCT FROM max(p.tf)
             OR min(b.min_length_per_tf) IS DISTINCT FROM min(p.chunk_length::float8 / p.tf)) t`,
    );
    expect(unbounded).toBe(0);
    const [defaults] = await db.dataSource.query(
      `SELECT id, name, slug FROM collections WHERE id = default_collection_id()`,
    );
    expect(defaults).toMatchObject({ name: 'Default', slug: 'default' });
    const owners = await db.dataSource.query(
      `SELECT (SELECT array_agg(DISTINCT collection_id)::text[] FROM documents) AS documents,
              (SELECT array_agg(DISTINCT collection_id)::text[] FROM chunks) AS chunks,
              (SELECT array_agg(DISTINCT collection_id)::text[] FROM bm25_postings) AS postings,
              (SELECT collection_id::text FROM question_banks WHERE id = $1) AS bank,
              (SELECT collection_ids::text[] FROM conversations WHERE id = $2) AS conversation`,
      [bank.id, conversation.id],
    );
    // A user key read the one library: it reads Default.
    expect(
      await db.dataSource.query(`SELECT collection_id, access FROM api_key_grants WHERE key_id = $1`, [
        alice.id,
      ]),
    ).toEqual([{ collection_id: defaults.id, access: 'read' }]);
    expect(owners[0]).toEqual({
      documents: [defaults.id],
      chunks: [defaults.id],
      postings: [defaults.id],
      bank: defaults.id,
      conversation: [defaults.id],
    });
    expect(
      await db.dataSource.query(
        `SELECT term, chunk_id, tf, chunk_length FROM bm25_postings ORDER BY term, chunk_id`,
      ),
    ).toEqual(postingsBefore);
    expect(await statistics('replica')).toEqual(await recount('replica'));

    // A second collection: the same bytes may be stored in it again, and its statistics are its own.
    const [runbooks] = await db.dataSource.query(
      `INSERT INTO collections (name, slug) VALUES ('Runbooks', 'runbooks') RETURNING id`,
    );
    const [hash] = await db.dataSource.query(`SELECT content_hash FROM documents WHERE id = $1`, [failover]);
    await db.dataSource.query(
      `INSERT INTO documents (title, content_hash, collection_id) VALUES ('Failover', $1, $2)`,
      [hash.content_hash, runbooks.id],
    );
    await expect(
      db.dataSource.query(`INSERT INTO documents (title, content_hash) VALUES ('Again', $1)`, [
        hash.content_hash,
      ]),
    ).rejects.toThrow(/documents_collection_hash_key/);

    // Moving a document's chunks moves their postings and statistics.
    await db.dataSource.query(`UPDATE documents SET collection_id = $2 WHERE id = $1`, [
      backups,
      runbooks.id,
    ]);
    await db.dataSource.query(`UPDATE chunks SET collection_id = $2 WHERE document_id = $1`, [
      backups,
      runbooks.id,
    ]);
    const moved = await statistics('replica');
    expect(moved).toEqual(await recount('replica'));
    expect(moved).toHaveLength(2);
    const [{ misplaced }] = await db.dataSource.query(
      `SELECT count(*)::int AS misplaced FROM bm25_postings p JOIN chunks c ON c.id = p.chunk_id
       WHERE p.collection_id <> c.collection_id`,
    );
    expect(misplaced).toBe(0);
    expect(await statistics('recoveri')).toEqual(await recount('recoveri'));

    // Down: one library again, its statistics the sums; refused while two collections hold the same file.
    await db.dataSource.undoLastMigration({ transaction: 'each' });
    await db.dataSource.undoLastMigration({ transaction: 'each' });
    await db.dataSource.undoLastMigration({ transaction: 'each' });
    await db.dataSource.undoLastMigration({ transaction: 'each' });
    await db.dataSource.undoLastMigration({ transaction: 'each' });
    await db.dataSource.undoLastMigration({ transaction: 'each' });
    await db.dataSource.undoLastMigration({ transaction: 'each' });
    await expect(db.dataSource.undoLastMigration({ transaction: 'each' })).rejects.toThrow(
      /stored in more than one collection/,
    );
    await db.dataSource.query(`DELETE FROM documents WHERE collection_id = $1 AND title = 'Failover'`, [
      runbooks.id,
    ]);
    await db.dataSource.undoLastMigration({ transaction: 'each' });
    const [{ n, df }] = await db.dataSource.query(
      `SELECT (SELECT chunk_count FROM bm25_corpus)::int AS n, (SELECT df FROM bm25_terms WHERE term = 'replica')::int AS df`,
    );
    const [all] = await db.dataSource.query(
      `SELECT count(*)::int AS n,
              count(*) FILTER (WHERE EXISTS (SELECT 1 FROM unnest(tsv) t WHERE t.lexeme = 'replica'))::int AS df
       FROM chunks`,
    );
    expect({ n, df }).toEqual(all);
    expect(await tables(db)).not.toContain('collections');
    await db.dataSource.runMigrations({ transaction: 'each' });
    expect(await statistics('replica')).toEqual(await recount('replica'));
  });
});

describe(`the feedback migration (${TEST_BACKEND})`, () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await startTestDatabase(testEnv());
  });

  afterAll(async () => {
    await db.close();
  });

  it('keeps one rating per answer and key, checks its reasons, cascades with the answer, and reverts', async () => {
    const key = '00000000-0000-4000-8000-000000000001';
    const [conversation] = await db.dataSource.query(
      `INSERT INTO conversations (title) VALUES ('Failover') RETURNING id`,
    );
    const [answer] = await db.dataSource.query(
      `INSERT INTO messages (conversation_id, role, content) VALUES ($1, 'assistant', 'Promote it') RETURNING id`,
      [conversation.id],
    );
    const rate = (rating: string, reasons: string[], note: string | null = null) =>
      db.dataSource.query(
        `INSERT INTO message_feedback (message_id, key_id, rating, reasons, note) VALUES ($1, $2, $3, $4, $5)
         RETURNING id`,
        [answer.id, key, rating, reasons, note],
      );
    await expect(rate('down', ['boring'])).rejects.toThrow(/check/i);
    await expect(rate('up', ['wrong'])).rejects.toThrow(/check/i);
    await expect(rate('down', [], 'x'.repeat(2001))).rejects.toThrow(/check/i);
    await expect(rate('sideways', [])).rejects.toThrow(/check/i);
    const [feedback] = await rate('down', ['wrong', 'outdated'], 'It was renamed');
    await expect(rate('up', [])).rejects.toThrow(/unique|duplicate/i);

    const [bank] = await db.dataSource.query(`INSERT INTO question_banks (name) VALUES ('Ops') RETURNING id`);
    const [item] = await db.dataSource.query(
      `INSERT INTO question_bank_items (bank_id, question, source, feedback_id)
       VALUES ($1, 'How do I fail over?', 'feedback', $2) RETURNING id`,
      [bank.id, feedback.id],
    );
    await db.dataSource.query(`DELETE FROM conversations WHERE id = $1`, [conversation.id]);
    expect(await db.dataSource.query(`SELECT id FROM message_feedback`)).toEqual([]);
    const [kept] = await db.dataSource.query(
      `SELECT question, feedback_id FROM question_bank_items WHERE id = $1`,
      [item.id],
    );
    expect(kept).toEqual({ question: 'How do I fail over?', feedback_id: null });

    await db.dataSource.undoLastMigration({ transaction: 'each' }); // postings' covering key
    await db.dataSource.undoLastMigration({ transaction: 'each' }); // embedder state
    await db.dataSource.undoLastMigration({ transaction: 'each' }); // sources
    await db.dataSource.undoLastMigration({ transaction: 'each' }); // bm25 term bounds
    await db.dataSource.undoLastMigration({ transaction: 'each' });
    expect(await tables(db)).not.toContain('message_feedback');
    const [down] = await db.dataSource.query(`SELECT source FROM question_bank_items WHERE id = $1`, [
      item.id,
    ]);
    expect(down.source).toBe('manual');
    await expect(
      db.dataSource.query(
        `INSERT INTO question_bank_items (bank_id, question, source) VALUES ($1, 'Q', 'feedback')`,
        [bank.id],
      ),
    ).rejects.toThrow(/check/i);
    await db.dataSource.runMigrations({ transaction: 'each' });
    expect(await tables(db)).toContain('message_feedback');
  });
});

describe(`the sources migration (${TEST_BACKEND})`, () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await startTestDatabase(testEnv());
  });

  afterAll(async () => {
    await db.close();
  });

  it('holds uploaded bytes once per collection but a source’s files each as their own, and reverts', async () => {
    const [source] = await db.dataSource.query(
      `INSERT INTO sources (collection_id, name, kind, config)
       VALUES (default_collection_id(), 'Handbook', 'folder', '{"kind":"folder","path":"/srv"}') RETURNING id`,
    );
    await db.dataSource.query(`INSERT INTO documents (title, content_hash) VALUES ('Uploaded', 'same')`);
    await expect(
      db.dataSource.query(`INSERT INTO documents (title, content_hash) VALUES ('Again', 'same')`),
    ).rejects.toThrow(/documents_collection_hash_key/);
    const [a] = await db.dataSource.query(
      `INSERT INTO documents (title, content_hash, source_id) VALUES ('a.md', 'same', $1) RETURNING id`,
      [source.id],
    );
    await db.dataSource.query(
      `INSERT INTO documents (title, content_hash, source_id) VALUES ('b.md', 'same', $1)`,
      [source.id],
    );
    await db.dataSource.query(
      `INSERT INTO source_items (source_id, key, document_id) VALUES ($1, 'a.md', $2)`,
      [source.id, a.id],
    );
    // Deleting a document leaves its item without one (the next sync indexes the file again).
    await db.dataSource.query(`DELETE FROM documents WHERE id = $1`, [a.id]);
    const [item] = await db.dataSource.query(`SELECT document_id FROM source_items WHERE key = 'a.md'`);
    expect(item.document_id).toBeNull();

    await db.dataSource.undoLastMigration({ transaction: 'each' }); // postings' covering key
    await db.dataSource.undoLastMigration({ transaction: 'each' }); // embedder state
    await db.dataSource.undoLastMigration({ transaction: 'each' });
    expect(await tables(db)).not.toContain('sources');
    const titles = await db.dataSource.query(`SELECT title FROM documents ORDER BY title`);
    expect(titles).toEqual([{ title: 'Uploaded' }]);
    await expect(
      db.dataSource.query(`INSERT INTO documents (title, content_hash) VALUES ('Again', 'same')`),
    ).rejects.toThrow(/documents_collection_hash_key/);
    await db.dataSource.runMigrations({ transaction: 'each' });
    expect(await tables(db)).toEqual(expect.arrayContaining(['sources', 'source_items', 'source_sync_runs']));
  });
});

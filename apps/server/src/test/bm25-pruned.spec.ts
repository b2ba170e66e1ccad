import { generateSyntheticCorpus, loadBeirDataset } from '@lumina/eval';
import { mulberry32 } from '@lumina/rag';
import type { RandomSource, ScoredChunk } from '@lumina/rag';
import { loadEnv } from '../config/load-env';
import { nodeDatasetFiles } from '../files/node-dataset-files';
import { SqlChunkSearch } from '../modules/rag/repositories/sql-chunk-search';
import { seedDocuments } from './helpers/seed-documents';
import type { SeedDocument } from './helpers/seed-documents';
import { TEST_BACKEND } from './helpers/test-backend';
import { startTestDatabase } from './helpers/test-database';
import type { TestDatabase } from './helpers/test-database';
import { testEnv } from './helpers/test-env';

const K1 = 0.9;
const B = 0.4;
const TOP_K = 10;
/** Generated queries per class, per phase (before and after the writes): 1,000 a class in all. */
const PER_CLASS = 500;
/** In the second phase, a document is added or deleted after every this many queries. */
const WRITE_EVERY = 50;
/** SciFact documents indexed (every test query is searched over them). */
const SCIFACT_DOCUMENTS = 1500;
/** NFCorpus documents indexed (every dev query is searched over them). */
const NFCORPUS_DOCUMENTS = 1500;
/** The dataset folders the eval commands use (EVAL_DATASET_DIR, NFCORPUS_DATASET_DIR), when set. */
const DATASETS = loadEnv();
const SCIFACT_DIR = DATASETS.EVAL_DATASET_DIR;
const NFCORPUS_DIR = DATASETS.NFCORPUS_DATASET_DIR;

/**
 * The pruned BM25 top-k (MaxScore over the stored term bounds) against the exhaustive statement: the same
 * chunks in the same order with the same scores, for generated queries of every class over a Zipfian
 * corpus (1,000 queries a class: before and after deletes, new documents and a move to another collection,
 * with a document added or deleted every 50 queries of the second half), with document and
 * collection filters, and for the SciFact test queries (EVAL_DATASET_DIR) and the NFCorpus dev queries
 * (NFCORPUS_DATASET_DIR) when those name the datasets. Pruning is
 * forced on (no small-query shortcut, few seed chunks) so these small corpora take the pruned path. A
 * second search that never prunes with MaxScore tries the intersection pass (the chunks holding every
 * term, through the GIN index) on every other query, and is held to the same top 10.
 */
describe(`BM25 pruned top-k equals the exhaustive search (${TEST_BACKEND})`, () => {
  let db: TestDatabase;
  let search: SqlChunkSearch;
  let intersecting: SqlChunkSearch;
  let compared = 0;
  const counts = { pruned: 0, exhaustive: 0, intersection: 0, postings: 0, totalPostings: 0 };
  const intersectingCounts = { pruned: 0, exhaustive: 0, intersection: 0 };

  const expectSame = (query: string, pruned: ScoredChunk[], exhaustive: ScoredChunk[]) => {
    const ids = (hits: ScoredChunk[]) => hits.map((hit) => hit.chunkId).join(',');
    if (ids(pruned) !== ids(exhaustive)) {
      throw new Error(
        `top ${TOP_K} of "${query}" differs:\npruned     ${JSON.stringify(pruned)}\nexhaustive ${JSON.stringify(exhaustive)}`,
      );
    }
    pruned.forEach((hit, i) => {
      if (Math.abs(hit.score - exhaustive[i].score) > 1e-9) {
        throw new Error(`score of ${hit.chunkId} for "${query}": ${hit.score} vs ${exhaustive[i].score}`);
      }
    });
  };

  const compare = async (
    query: string,
    filter: { documentIds?: string[]; collectionIds?: string[] } = {},
  ) => {
    const { hits, stats } = await search.lexicalWithStats(query, TOP_K, filter);
    const reference = await search.lexicalExhaustive(query, TOP_K, filter);
    expectSame(query, hits, reference);
    counts[stats.path] += 1;
    counts.postings += stats.postings;
    counts.totalPostings += stats.totalPostings;
    if (compared++ % 2 === 0) {
      const other = await intersecting.lexicalWithStats(query, TOP_K, filter);
      expectSame(query, other.hits, reference);
      intersectingCounts[other.stats.path] += 1;
    }
  };

  /** Terms that analyse to themselves, by df band. */
  const termsWithDf = async (min: number, max: number, limit: number): Promise<string[]> => {
    const rows: { term: string }[] = await db.dataSource.query(
      `SELECT t.term FROM bm25_terms t
       WHERE t.df BETWEEN $1 AND $2 AND t.term ~ '^[a-z]{3,}$'
         AND array(SELECT lexeme FROM unnest(to_tsvector('english', t.term))) = ARRAY[t.term]
       ORDER BY t.term LIMIT $3`,
      [min, max, limit],
    );
    return rows.map((row) => row.term);
  };

  const generatedQueries = async (random: RandomSource): Promise<Record<string, string[]>> => {
    const [{ n }] = await db.dataSource.query(`SELECT chunk_count::int AS n FROM bm25_corpus`);
    const rare = await termsWithDf(1, Math.max(3, Math.floor(n * 0.002)), 400);
    const mid = await termsWithDf(Math.ceil(n * 0.005), Math.floor(n * 0.03), 400);
    const common = await termsWithDf(Math.ceil(n * 0.08), n, 60);
    expect(rare.length).toBeGreaterThan(20);
    expect(mid.length).toBeGreaterThan(10);
    expect(common.length).toBeGreaterThan(4);
    const pick = (terms: string[], count: number) =>
      Array.from({ length: count }, () => terms[Math.floor(random() * terms.length)]);
    const texts: { text: string }[] = await db.dataSource.query(
      `SELECT text FROM chunks ORDER BY id LIMIT $1`,
      [PER_CLASS],
    );
    const hyde = texts.map(({ text }) => text.split(/\s+/).slice(0, 24).join(' '));
    const classes: Record<string, () => string[]> = {
      'rare only': () => pick(rare, 3),
      mid: () => pick(mid, 3),
      'one common + rare': () => [...pick(common, 1), ...pick(rare, 2)],
      'two common + rare': () => [...pick(common, 2), ...pick(mid, 1), ...pick(rare, 2)],
      'all common': () => pick(common, 3),
      // Two common words: the intersection pass's own case on a corpus this small.
      'two common': () => pick(common, 2),
    };
    const queries: Record<string, string[]> = {};
    for (const [name, make] of Object.entries(classes)) {
      queries[name] = Array.from({ length: PER_CLASS }, () => make().join(' '));
    }
    queries['HyDE length (24 terms)'] = hyde;
    return queries;
  };

  beforeAll(async () => {
    db = await startTestDatabase(testEnv());
    search = new SqlChunkSearch(db.dataSource, {
      k1: K1,
      b: B,
      efSearch: 40,
      bm25Pruning: {
        pruneAbove: 0,
        maxPrunedTerms: 64,
        seedLookups: 60,
        maxEssentialShare: 1,
        maxIntersectionShare: 0.25,
      },
    });
    intersecting = new SqlChunkSearch(db.dataSource, {
      k1: K1,
      b: B,
      efSearch: 40,
      bm25Pruning: {
        pruneAbove: 0,
        maxPrunedTerms: 64,
        seedLookups: 60,
        maxEssentialShare: 0,
        maxIntersectionShare: 1,
      },
    });
    const corpus = generateSyntheticCorpus({ chunks: 1500, dimension: 2, queries: 0, seed: 7 });
    const documents: SeedDocument[] = corpus.documents.map((document) => ({
      title: document.title,
      text: corpus.texts.slice(document.firstChunk, document.firstChunk + document.chunkCount).join('\n\n'),
    }));
    await seedDocuments(db.dataSource, null, documents.slice(0, 120));
  }, 600_000);

  afterAll(async () => {
    await db?.close();
  });

  it('keeps a safe bound for every term: its largest tf and smallest length per tf', async () => {
    await expectSafeBounds(db);
  });

  it('gives the exhaustive top 10 for generated queries of every class, before and after writes', async () => {
    const random = mulberry32(11);
    for (const [, queries] of Object.entries(await generatedQueries(random))) {
      for (const query of queries) await compare(query);
    }

    // Writes in between: a fifth of the documents deleted, new ones indexed, some moved to a collection.
    const ids: { id: string }[] = await db.dataSource.query(`SELECT id FROM documents ORDER BY id`);
    await db.dataSource.query(`DELETE FROM documents WHERE id = ANY($1::uuid[])`, [
      ids.filter((_, i) => i % 5 === 0).map((row) => row.id),
    ]);
    const corpus = generateSyntheticCorpus({ chunks: 1500, dimension: 2, queries: 0, seed: 8 });
    await seedDocuments(
      db.dataSource,
      null,
      corpus.documents.slice(0, 60).map((document) => ({
        title: `${document.title} (second batch)`,
        text: corpus.texts.slice(document.firstChunk, document.firstChunk + document.chunkCount).join('\n\n'),
      })),
    );
    const [{ id: other }] = await db.dataSource.query(
      `INSERT INTO collections (name, slug) VALUES ('Other', 'other') RETURNING id`,
    );
    const moved = ids.filter((_, i) => i % 7 === 3).map((row) => row.id);
    await db.dataSource.query(`UPDATE documents SET collection_id = $2 WHERE id = ANY($1::uuid[])`, [
      moved,
      other,
    ]);
    await db.dataSource.query(`UPDATE chunks SET collection_id = $2 WHERE document_id = ANY($1::uuid[])`, [
      moved,
      other,
    ]);
    await expectSafeBounds(db);

    const after = await generatedQueries(random);
    const [{ id: defaults }] = await db.dataSource.query(`SELECT default_collection_id() AS id`);
    const someDocuments: { id: string }[] = await db.dataSource.query(
      `SELECT id FROM documents WHERE collection_id = $1 ORDER BY id LIMIT 30`,
      [defaults],
    );
    const extra = generateSyntheticCorpus({ chunks: 1500, dimension: 2, queries: 0, seed: 9 });
    let writes = 0;
    // Writes between the queries too: statistics and bounds move while the searches run.
    const write = async () => {
      writes += 1;
      if (writes % 2 === 1) {
        const document = extra.documents[writes % extra.documents.length];
        await seedDocuments(db.dataSource, null, [
          {
            title: `${document.title} (written between queries)`,
            text: extra.texts
              .slice(document.firstChunk, document.firstChunk + document.chunkCount)
              .join('\n\n'),
          },
        ]);
      } else {
        await db.dataSource.query(
          `DELETE FROM documents WHERE id = (SELECT id FROM documents WHERE collection_id = $1 ORDER BY id DESC LIMIT 1)`,
          [defaults],
        );
      }
    };
    for (const [, queries] of Object.entries(after)) {
      for (const [i, query] of queries.entries()) {
        if (i > 0 && i % WRITE_EVERY === 0) await write();
        await compare(query);
        if (i % 10 === 0) {
          await compare(query, { collectionIds: [defaults] });
          await compare(query, { collectionIds: [other] });
          await compare(query, { documentIds: someDocuments.map((row) => row.id) });
        }
      }
    }
    expect(writes).toBeGreaterThan(50);
    await expectSafeBounds(db);
    // The pruned path was taken, and read fewer postings than the exhaustive one.
    expect(counts.pruned).toBeGreaterThan((counts.pruned + counts.exhaustive) / 3);
    expect(counts.postings).toBeLessThan(counts.totalPostings);
    // The intersection pass answered some queries by itself (common words only, mostly).
    expect(counts.intersection).toBeGreaterThan(0);
    expect(intersectingCounts.intersection).toBeGreaterThan(100);
    expect(intersectingCounts.exhaustive).toBeGreaterThan(0);
  }, 1_200_000);

  it('finds the chunks holding every term whatever punctuation their lexemes hold', async () => {
    // Lexemes the parser makes of URLs, paths and addresses hold '&', ':', '?', '/', '@' and '.': the
    // intersection's tsquery must match each as it is.
    await seedDocuments(
      db.dataSource,
      null,
      Array.from({ length: 12 }, (_, i) => ({
        title: `Punctuated ${i}`,
        text: `Install into /usr/local/bin, then write to o'reilly@example.com or open https://example.com/a?b=c&d=e:f for the report number ${i}.`,
      })),
    );
    const query = '/usr/local/bin reilly@example.com https://example.com/a?b=c&d=e:f';
    const { hits, stats } = await intersecting.lexicalWithStats(query, TOP_K);
    expectSame(query, hits, await search.lexicalExhaustive(query, TOP_K));
    expect(stats.intersection).toBe(12);
  });

  (SCIFACT_DIR ? it : it.skip)(
    'gives the exhaustive top 10 for every SciFact test query (EVAL_DATASET_DIR)',
    async () => {
      const dataset = await loadBeirDataset(nodeDatasetFiles, SCIFACT_DIR!, 'test');
      await seedDocuments(
        db.dataSource,
        null,
        [...dataset.corpus.values()]
          .slice(0, SCIFACT_DOCUMENTS)
          .map((document) => ({ title: document.title, text: document.text })),
      );
      for (const query of dataset.queries.values()) await compare(query);
    },
    1_200_000,
  );

  (NFCORPUS_DIR ? it : it.skip)(
    'gives the exhaustive top 10 for every NFCorpus dev query (NFCORPUS_DATASET_DIR)',
    async () => {
      const dataset = await loadBeirDataset(nodeDatasetFiles, NFCORPUS_DIR!, 'dev', {
        allowUnknownQrels: true,
      });
      // NFCorpus holds some abstracts twice: one document each.
      const documents = new Map(
        [...dataset.corpus.values()]
          .slice(0, NFCORPUS_DOCUMENTS)
          .map((document) => [
            `${document.title}\n${document.text}`,
            { title: document.title, text: document.text },
          ]),
      );
      await seedDocuments(db.dataSource, null, [...documents.values()]);
      const dev = [...dataset.qrels.keys()].flatMap((id) => dataset.queries.get(id) ?? []);
      expect(dev.length).toBeGreaterThan(100);
      for (const query of dev) await compare(query);
    },
    1_200_000,
  );
});

async function expectSafeBounds(db: TestDatabase): Promise<void> {
  const unsafe = await db.dataSource.query(
    `SELECT p.collection_id, p.term, max(p.tf) AS tf, min(p.chunk_length::float8 / p.tf) AS ratio,
            b.max_tf, b.min_length_per_tf
     FROM bm25_postings p
     LEFT JOIN (SELECT collection_id, term, max(max_tf) AS max_tf, min(min_length_per_tf) AS min_length_per_tf
                FROM bm25_term_bounds GROUP BY collection_id, term) b
       ON b.collection_id = p.collection_id AND b.term = p.term
     GROUP BY p.collection_id, p.term, b.max_tf, b.min_length_per_tf
     HAVING b.max_tf IS NULL OR max(p.tf) > b.max_tf OR min(p.chunk_length::float8 / p.tf) < b.min_length_per_tf`,
  );
  expect(unsafe).toEqual([]);
}

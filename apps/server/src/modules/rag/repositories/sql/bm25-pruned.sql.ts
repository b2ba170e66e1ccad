/**
 * The statements of the pruned BM25 top-k (bm25-pruned-search.ts). Same analysis, statistics and term
 * choice as the exhaustive search (bm25-search.sql.ts).
 */

/**
 * The opening CTEs of the statements that read the query's terms: the query analysed as the exhaustive
 * statement analyses it (query_terms), N and the average length (corpus), and the scored terms with
 * their df and idf, in the exhaustive statement's order and limit (weighted_terms). Parameters $1, $6, $7
 * and $8 are the exhaustive statement's (bm25-search.sql.ts).
 */
const SCORED_TERMS = `WITH query_terms AS (
  SELECT t.lexeme AS term, max(coalesce(array_length(t.positions, 1), 1)) AS qtf
  FROM unnest($1::text[], $7::text[]) AS a(text, config)
  CROSS JOIN LATERAL unnest(to_tsvector(a.config::regconfig, a.text)) AS t
  GROUP BY t.lexeme
),
corpus AS (
  SELECT coalesce(sum(chunk_count), 0)::float8 AS n,
         CASE WHEN sum(chunk_count) > 0 THEN sum(total_length)::float8 / sum(chunk_count) ELSE 1 END AS avg_len
  FROM bm25_corpus_slots
  WHERE collection_id = ANY($8::uuid[])
),
weighted_terms AS MATERIALIZED (
  SELECT q.term, q.qtf, bt.df, ln(1 + (corpus.n - bt.df + 0.5) / (bt.df + 0.5)) AS idf
  FROM query_terms q
  CROSS JOIN LATERAL (
    SELECT sum(s.df)::float8 AS df FROM bm25_term_slots s
    WHERE s.term = q.term AND s.collection_id = ANY($8::uuid[])
  ) bt
  CROSS JOIN corpus
  WHERE bt.df > 0
  ORDER BY q.qtf * ln(1 + (corpus.n - bt.df + 0.5) / (bt.df + 0.5)) DESC, q.term
  LIMIT $6
),`;

/**
 * A chunk's score over its postings `p` of the terms `w`, summed as the exhaustive statement sums it
 * (bm25-search.sql.ts: each contribution rounded to 1e-12, added as integers), so a chunk scores the same
 * in every statement. $2 k1, $3 b.
 */
const SCORE_SUM = `sum(round(w.qtf * w.idf * p.tf * ($2::float8 + 1)
             / (p.tf + $2::float8 * (1 - $3::float8 + $3::float8 * p.chunk_length / corpus.avg_len))
             * 1e12::float8)::int8)::float8 / 1e12::float8`;

/**
 * The CTE hits: the top $4 chunks by SCORE_SUM, summed over `postings` (a LATERAL subquery giving the
 * postings of each scored term `w`: chunk_id, tf, chunk_length), those passing `where` (a condition on
 * them, or none). The first statement and the seeds' statement differ only in those two.
 */
function topHits(postings: string, where = ''): string {
  return `hits AS (
  SELECT p.chunk_id,
         ${SCORE_SUM} AS score
  FROM weighted_terms w
  CROSS JOIN corpus
  CROSS JOIN LATERAL (${postings}
  ) p${where}
  GROUP BY p.chunk_id
  ORDER BY score DESC, p.chunk_id
  LIMIT $4
)`;
}

/**
 * The first statement of a search: how many scored terms the query has and how many postings they hold
 * in all (the exhaustive search's weighted_terms: same df, order and limit), and, when that is at most $9
 * postings, or there is only one term or more than $10, the top $4 scored as the exhaustive statement scores them (same
 * sums, so same scores and order): a query too small to prune costs one statement, planned about as
 * quickly as the exhaustive one (the terms' bounds, which only a pruned search needs, are read in its
 * snapshot: BM25_TERMS_AND_SEEDS_SQL). Parameters $1–$8 are the exhaustive statement's
 * (bm25-search.sql.ts). Rows: the hits in rank order, each with terms and postings; one row with no hit
 * when the query is not small or nothing matched.
 */
export const BM25_TERMS_OR_HITS_SQL = `
${SCORED_TERMS}
small AS (
  SELECT coalesce(sum(df), 0) <= $9::float8 OR count(*) < 2 OR count(*) > $10::int AS small,
         count(*)::int AS terms,
         coalesce(sum(df), 0)::float8 AS postings
  FROM weighted_terms
),
${topHits(
  `
    SELECT chunk_id, tf, chunk_length FROM bm25_postings
    WHERE term = w.term AND collection_id = ANY($8::uuid[]) AND (SELECT small FROM small)
    OFFSET 0`,
  `
  WHERE $5::uuid[] IS NULL OR p.chunk_id IN (SELECT id FROM chunks WHERE document_id = ANY($5::uuid[]))`,
)}
SELECT s.terms, s.postings, h.chunk_id AS "chunkId", h.score
FROM small s
LEFT JOIN hits h ON true
ORDER BY h.score DESC, h.chunk_id`;

/**
 * The first statement of a pruned search, in its snapshot: the query's scored terms (the exhaustive
 * search's weighted_terms) with the corpus's average length and each term's bound, its largest tf and
 * smallest length/tf over the writers' slots of the searched collections, null when none is kept (kind
 * 'term': term, weight = qtf·idf, df, avgLength, maxTf, minLengthPerTf); and a first threshold's evidence
 * (kind 'hit'): up to $9 seed chunks, the first chunks in key order of the rarest term, then of the
 * next, passing the document filter, scored in full as the exhaustive statement scores them (same sums,
 * so the same scores), their top $4 in rank order. Every row carries how many seeds were scored (seeds).
 * One statement instead of three (the terms, the seeds, their scores): each of them analysed the query
 * and read N and the df again.
 * Parameters $1–$8 are the exhaustive statement's (bm25-search.sql.ts).
 */
export const BM25_TERMS_AND_SEEDS_SQL = `
${SCORED_TERMS}
seeds AS MATERIALIZED (
  SELECT DISTINCT s.chunk_id FROM (
    SELECT p.chunk_id
    FROM (SELECT term FROM weighted_terms ORDER BY df, term) t
    CROSS JOIN LATERAL (
      SELECT chunk_id FROM bm25_postings
      WHERE collection_id = ANY($8::uuid[]) AND term = t.term
        AND ($5::uuid[] IS NULL OR chunk_id IN (SELECT id FROM chunks WHERE document_id = ANY($5::uuid[])))
      LIMIT $9
    ) p
    LIMIT $9
  ) s
),
${topHits(`
    SELECT p.chunk_id, p.tf, p.chunk_length
    FROM seeds c
    CROSS JOIN LATERAL (
      SELECT chunk_id, tf, chunk_length FROM bm25_postings
      WHERE term = w.term AND collection_id = ANY($8::uuid[]) AND chunk_id = c.chunk_id
      OFFSET 0
    ) p
    OFFSET 0`)}
SELECT 'term' AS kind, w.term, w.qtf * w.idf AS weight, w.df, corpus.avg_len AS "avgLength",
       b.max_tf AS "maxTf", b.min_length_per_tf AS "minLengthPerTf", NULL::uuid AS "chunkId", NULL::float8 AS score,
       (SELECT count(*) FROM seeds)::int AS seeds
FROM weighted_terms w
CROSS JOIN corpus
CROSS JOIN LATERAL (
  SELECT max(max_tf) AS max_tf, min(min_length_per_tf) AS min_length_per_tf FROM bm25_term_bounds
  WHERE term = w.term AND collection_id = ANY($8::uuid[])
) b
UNION ALL
SELECT 'hit', NULL, NULL, NULL, NULL, NULL, NULL, h.chunk_id, h.score, (SELECT count(*) FROM seeds)::int
FROM hits h`;

/** One term's contribution, `w` its weight and `p` its posting ($1 k1, $2 b, $3 the average length). */
const CONTRIBUTION = `w.weight * p.tf * ($1::float8 + 1)
           / (p.tf + $1::float8 * (1 - $2::float8 + $2::float8 * p.chunk_length / $3::float8))`;

/**
 * MaxScore's candidates: every posting of the essential terms ($4 terms, $5 weights) is read and summed
 * per chunk; a chunk whose partial score plus the non-essential terms' bound ($8) stays below the
 * threshold ($9) is dropped; the others get the non-essential terms ($6 terms, $7 weights) looked up in
 * the postings' key for them alone. Returned: the chunks whose score is within `slack` of the k-th ($11)
 * best, for the exact rescoring, and how many chunks were looked up.
 *   $10 collections (uuid[])   $12 document ids (uuid[]; NULL = every document)   $13 the relative slack
 */
export const BM25_MAXSCORE_CANDIDATES_SQL = `
WITH essential AS MATERIALIZED (
  SELECT p.chunk_id, sum(${CONTRIBUTION}) AS partial
  FROM unnest($4::text[], $5::float8[]) AS w(term, weight)
  CROSS JOIN LATERAL (
    SELECT chunk_id, tf, chunk_length FROM bm25_postings
    WHERE term = w.term AND collection_id = ANY($10::uuid[])
    OFFSET 0
  ) p
  WHERE $12::uuid[] IS NULL OR p.chunk_id IN (SELECT id FROM chunks WHERE document_id = ANY($12::uuid[]))
  GROUP BY p.chunk_id
  HAVING sum(${CONTRIBUTION}) + $8::float8 >= $9::float8 * (1 - $13::float8)
),
scored AS MATERIALIZED (
  SELECT e.chunk_id, e.partial + coalesce((
    SELECT sum(${CONTRIBUTION})
    FROM unnest($6::text[], $7::float8[]) AS w(term, weight)
    JOIN bm25_postings p ON p.collection_id = ANY($10::uuid[]) AND p.term = w.term AND p.chunk_id = e.chunk_id
  ), 0) AS score
  FROM essential e
),
kth AS (
  SELECT score FROM scored ORDER BY score DESC LIMIT 1 OFFSET $11::int - 1
)
SELECT s.chunk_id AS "chunkId", s.score, (SELECT count(*) FROM essential)::int AS "lookedUp"
FROM scored s
WHERE s.score >= greatest($9::float8, coalesce((SELECT score FROM kth), 0)) * (1 - $13::float8)`;

/**
 * The intersection pass in one statement: the chunks holding every one of the query's scored terms, each
 * scored from its own row as the GIN scan returns it. $9 is a tsquery ANDing the lexemes (quoted, so none
 * is analysed again; everyTermQuery), matched through the GIN index on chunks.tsv, in the searched
 * collections, passing the document filter; at most $10 chunks are read. A chunk's postings are made of
 * this very tsvector by the index writer (bm25-index-writer.sql.ts: a term's tf is the count of its
 * positions, chunk_length the chunk's lexical_length), so the tf read off it (the query's lexemes weighted
 * A, the rest filtered out) with its lexical_length, summed as SCORE_SUM sums postings, give the exhaustive
 * statement's score to the bit, with no probe of the postings' key per chunk and term. At 1M chunks, three
 * common words: median 48 ms against 71 for reading the chunks' ids and then looking up their postings.
 * Parameters $1–$8 are the exhaustive statement's (bm25-search.sql.ts). Rows: the top $4 in rank order,
 * each with how many chunks were read (holding).
 */
export const BM25_INTERSECTION_SQL = `
${SCORED_TERMS}
term_list AS (
  SELECT array_agg(term) AS terms FROM weighted_terms
),
scored AS (
  SELECT c.id AS chunk_id, (
    SELECT ${SCORE_SUM}
    FROM unnest(ts_filter(setweight(c.tsv, 'A', (SELECT terms FROM term_list)), '{a}')) AS t
    CROSS JOIN LATERAL (
      SELECT coalesce(array_length(t.positions, 1), 1) AS tf, c.lexical_length AS chunk_length
    ) p
    JOIN weighted_terms w ON w.term = t.lexeme
    CROSS JOIN corpus
  ) AS score
  FROM chunks c
  WHERE c.tsv @@ $9::tsquery AND c.collection_id = ANY($8::uuid[])
    AND ($5::uuid[] IS NULL OR c.document_id = ANY($5::uuid[]))
  LIMIT $10
)
SELECT s.chunk_id AS "chunkId", s.score, count(*) OVER ()::int AS holding
FROM scored s
ORDER BY s.score DESC, s.chunk_id
LIMIT $4`;

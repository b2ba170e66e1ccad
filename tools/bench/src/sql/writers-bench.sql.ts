/** The BM25 statistics the triggers kept, against a recount from the chunks' tsvectors: one row, `ok`. */
export const BM25_STATISTICS_EXACT_SQL = `
    WITH recount AS (
      SELECT t.lexeme AS term, count(*)::bigint AS df FROM chunks c, unnest(c.tsv) AS t GROUP BY t.lexeme
    ),
    kept AS (SELECT term, df::bigint AS df FROM bm25_terms)
    SELECT NOT EXISTS (
             (SELECT * FROM recount EXCEPT SELECT * FROM kept) UNION ALL (SELECT * FROM kept EXCEPT SELECT * FROM recount)
           )
       AND (SELECT count(*) FROM bm25_postings) = (SELECT count(*) FROM chunks, unnest(tsv))
       AND (SELECT row(chunk_count::bigint, total_length::bigint) FROM bm25_corpus WHERE id = 1)
           = (SELECT row(count(*)::bigint, coalesce(sum(lexical_length), 0)::bigint) FROM chunks) AS ok`;

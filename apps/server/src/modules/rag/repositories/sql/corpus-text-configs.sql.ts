/**
 * The distinct text-search configurations of the indexed documents, read as a loose index scan over
 * documents_text_config_idx: one index probe per configuration, however many documents there are.
 */
export const CORPUS_TEXT_CONFIGS_SQL = `
WITH RECURSIVE configs AS (
  (SELECT text_config FROM documents WHERE text_config IS NOT NULL ORDER BY text_config LIMIT 1)
  UNION ALL
  SELECT (SELECT d.text_config FROM documents d WHERE d.text_config > configs.text_config
          ORDER BY d.text_config LIMIT 1)
  FROM configs WHERE configs.text_config IS NOT NULL
)
SELECT text_config AS "textConfig" FROM configs WHERE text_config IS NOT NULL
`;

/**
 * The distinct languages of the documents of collections `$1` (null: every collection), the same way
 * over documents_language_idx.
 */
export const CORPUS_LANGUAGES_SQL = `
WITH RECURSIVE languages AS (
  (SELECT language FROM documents
   WHERE language IS NOT NULL AND ($1::uuid[] IS NULL OR collection_id = ANY($1::uuid[]))
   ORDER BY language LIMIT 1)
  UNION ALL
  SELECT (SELECT d.language FROM documents d
          WHERE d.language > languages.language AND ($1::uuid[] IS NULL OR d.collection_id = ANY($1::uuid[]))
          ORDER BY d.language LIMIT 1)
  FROM languages WHERE languages.language IS NOT NULL
)
SELECT language FROM languages WHERE language IS NOT NULL
`;

/**
 * How many documents hold each language (given or detected), over documents_language_idx. A document
 * whose language is not known yet (queued, or none detected) is not counted.
 */
export const CORPUS_LANGUAGE_COUNTS_SQL = `
SELECT language, count(*)::int AS documents
FROM documents
WHERE language IS NOT NULL
GROUP BY language
ORDER BY language
`;

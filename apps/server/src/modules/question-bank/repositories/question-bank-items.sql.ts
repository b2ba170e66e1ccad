/**
 * The fields an import compares, of every item of bank `$1`, in insertion order, with the id the
 * item had in its source file (a BEIR query id) as "externalKey".
 */
export const IMPORT_MATCH_ITEMS_SQL = `
  SELECT id, question, expected_answer AS "expectedAnswer", in_scope AS "inScope",
         expected_sources AS "expectedSources", language, tags, difficulty,
         metadata->>'beirQueryId' AS "externalKey"
  FROM question_bank_items
  WHERE bank_id = $1
  ORDER BY seq`;

/** The questions of bank `$1` (generation skips those it would repeat). */
export const BANK_QUESTIONS_SQL = `SELECT question FROM question_bank_items WHERE bank_id = $1`;

/**
 * Sets the imported fields of item `$1` of bank `$2`; a field whose parameter is NULL and whose
 * "given" flag is false keeps its value (`$3`… in the order of IMPORT_UPDATE_COLUMNS).
 */
export const IMPORT_UPDATE_ITEM_SQL = `
  UPDATE question_bank_items SET
    question         = CASE WHEN $3::boolean  THEN $4::text    ELSE question END,
    expected_answer  = CASE WHEN $5::boolean  THEN $6::text    ELSE expected_answer END,
    in_scope         = CASE WHEN $7::boolean  THEN $8::boolean ELSE in_scope END,
    expected_sources = CASE WHEN $9::boolean  THEN $10::jsonb  ELSE expected_sources END,
    language         = CASE WHEN $11::boolean THEN $12::text   ELSE language END,
    tags             = CASE WHEN $13::boolean THEN $14::text[] ELSE tags END,
    difficulty       = CASE WHEN $15::boolean THEN $16::text   ELSE difficulty END,
    updated_at       = now()
  WHERE id = $1 AND bank_id = $2`;

/** Marks bank `$1` as changed. */
export const TOUCH_BANK_SQL = `UPDATE question_banks SET updated_at = now() WHERE id = $1`;

/** The chunks that expected sources of bank `$1`'s items name. */
export const CITED_CHUNKS_SQL = `
  SELECT DISTINCT s->>'chunkId' AS chunk_id
  FROM question_bank_items i CROSS JOIN LATERAL jsonb_array_elements(i.expected_sources) s
  WHERE i.bank_id = $1 AND s ? 'chunkId'`;

/** The one row of embedder_state, locked for the switch (`FOR UPDATE`); no row before its migration. */
export const LOCK_EMBEDDER_STATE_SQL = `SELECT model FROM embedder_state WHERE id = 1 FOR UPDATE`;

/** The row as /health and the re-embed job read it. */
export const EMBEDDER_STATE_SQL = `
  SELECT model, reembed_pending AS "reembedPending", reembed_done AS "reembedDone",
         reembed_total AS "reembedTotal", changed_at AS "changedAt"
  FROM embedder_state WHERE id = 1`;

/** The chunks now hold (or will hold) vectors of model `$1`; `$2`: whether some still lack one. */
export const ADOPT_EMBEDDER_SQL = `
  UPDATE embedder_state
  SET model = $1, reembed_pending = $2, reembed_done = 0, reembed_total = 0, changed_at = now()
  WHERE id = 1`;

/** Vectors of another model than `$1` are dropped: a query vector of `$1` can't be compared with them. */
export const DROP_OTHER_MODELS_VECTORS_SQL = `
  UPDATE chunks SET embedding = NULL, embedding_model = NULL
  WHERE embedding IS NOT NULL AND embedding_model IS DISTINCT FROM $1`;

/** Whether any chunk lacks a vector of model `$1`. */
export const ANY_CHUNK_LACKS_VECTOR_SQL = `
  SELECT EXISTS (
    SELECT 1 FROM chunks WHERE embedding IS NULL OR embedding_model IS DISTINCT FROM $1
  ) AS lacking`;

/** The re-embed job's progress for model `$1` (ignored when the state names another model). */
export const REEMBED_PROGRESS_SQL = `
  UPDATE embedder_state SET reembed_done = $2, reembed_total = $3 WHERE id = 1 AND model = $1`;

/** The re-embed job for model `$1` found nothing left to embed. */
export const REEMBED_FINISHED_SQL = `
  UPDATE embedder_state SET reembed_pending = false, reembed_done = reembed_total
  WHERE id = 1 AND model = $1`;

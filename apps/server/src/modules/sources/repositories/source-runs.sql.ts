/** The latest run of each source `$1`. */
export const LATEST_RUNS_SQL = `
  SELECT DISTINCT ON (source_id) * FROM source_sync_runs
  WHERE source_id = ANY($1::uuid[]) ORDER BY source_id, started_at DESC, id DESC`;

/** Runs of source `$1`, newest first: `$2` from offset `$3`. */
export const RUN_PAGE_SQL = `
  SELECT * FROM source_sync_runs WHERE source_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2 OFFSET $3`;

/**
 * A run of source `$1` begins (trigger `$2`, cursor before `$3`): runs the source left running are
 * interrupted (their worker died; only one sync of a source runs at a time), and the request is taken.
 */
export const INTERRUPT_RUNS_SQL = `
  UPDATE source_sync_runs SET status = 'interrupted', finished_at = now(),
         duration_ms = (extract(epoch FROM now() - started_at) * 1000)::int,
         error = 'The worker stopped before the sync ended (it crashed or was killed); the sync ran again.'
  WHERE source_id = $1 AND status = 'running'`;

export const START_RUN_SQL = `
  INSERT INTO source_sync_runs (source_id, status, trigger, cursor_before) VALUES ($1, 'running', $2, $3)
  RETURNING id`;

/** Run `$1` ends with status `$2` and its report. */
export const FINISH_RUN_SQL = `
  UPDATE source_sync_runs SET status = $2, finished_at = now(),
         duration_ms = (extract(epoch FROM clock_timestamp() - started_at) * 1000)::int,
         added = $3, updated = $4, unchanged = $5, deleted = $6, failed = $7, failures = $8::jsonb,
         error = $9, cursor_after = $10
  WHERE id = $1`;

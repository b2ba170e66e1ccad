/**
 * Documents whose status says a job should exist (queued or in progress) and that have not moved for
 * `$1` milliseconds (a fresh upload is given time to reach the queue), oldest first, at most `$2`.
 * Documents of sources are left out: their sync indexes them, and a rerun of the sync repairs them.
 */
export const STRANDED_DOCUMENTS_SQL = `
  SELECT id, status
  FROM documents
  WHERE status IN ('queued', 'parsing', 'chunking', 'embedding') AND source_id IS NULL
    AND updated_at < now() - make_interval(secs => $1::double precision / 1000)
  ORDER BY updated_at
  LIMIT $2`;

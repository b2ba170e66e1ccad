/**
 * How far each ablation has got: its combinations' runs, and those finished (completed or failed).
 * Parameters: $1 ablation ids (uuid[]). Served by eval_runs_ablation_idx.
 */
export const ABLATION_PROGRESS_SQL = `
  SELECT ablation_id AS "ablationId",
         count(*)::int AS total,
         count(*) FILTER (WHERE status IN ('completed', 'failed'))::int AS finished
    FROM eval_runs
   WHERE ablation_id = ANY($1::uuid[])
   GROUP BY ablation_id
`;

/** The collection each kind of evaluation resource belongs to (its bank's, for runs and ablations). */
export const WORK_TARGET_COLLECTION_SQL = {
  bank: `SELECT collection_id FROM question_banks WHERE id = $1`,
  run: `SELECT b.collection_id FROM eval_runs r JOIN question_banks b ON b.id = r.bank_id WHERE r.id = $1`,
  ablation: `SELECT b.collection_id FROM ablations a JOIN question_banks b ON b.id = a.bank_id WHERE a.id = $1`,
  reranker: `SELECT collection_id FROM reranker_models WHERE id = $1`,
} as const;

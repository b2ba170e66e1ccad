/**
 * Each bank's latest completed ablation (by when it finished), with the bank's name. Parameters: $1 a
 * bank id (uuid) to read only that bank's, or null for every bank. The ablations table holds a handful
 * of rows per bank.
 */
export const LATEST_COMPLETED_ABLATIONS_SQL = `
  SELECT DISTINCT ON (a.bank_id)
         a.id, a.bank_id AS "bankId", b.name AS "bankName", b.collection_id AS "collectionId", a.generator, a.finished_at AS "finishedAt"
    FROM ablations a
    JOIN question_banks b ON b.id = a.bank_id
   WHERE a.status = 'completed' AND ($1::uuid IS NULL OR a.bank_id = $1::uuid)
   ORDER BY a.bank_id, a.finished_at DESC NULLS LAST, a.created_at DESC, a.id
`;

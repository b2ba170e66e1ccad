/**
 * A bank with its item count and its judged item count (in scope, at least one expected source), counted
 * when read (BankRow).
 */
export const BANK_WITH_ITEM_COUNT = `
  SELECT b.*,
    (SELECT count(*) FROM question_bank_items i WHERE i.bank_id = b.id)::int AS item_count,
    (SELECT count(*) FROM question_bank_items i
      WHERE i.bank_id = b.id AND i.in_scope AND jsonb_array_length(i.expected_sources) > 0)::int
      AS judged_item_count
  FROM question_banks b`;

/** Bank `$1` with its item count. */
export const BANK_SQL = `${BANK_WITH_ITEM_COUNT} WHERE b.id = $1`;

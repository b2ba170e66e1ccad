/** A bank with its item count (BankRow), counted when read. */
export const BANK_WITH_ITEM_COUNT = `
  SELECT b.*, (SELECT count(*) FROM question_bank_items i WHERE i.bank_id = b.id)::int AS item_count
  FROM question_banks b`;

/** Bank `$1` with its item count. */
export const BANK_SQL = `${BANK_WITH_ITEM_COUNT} WHERE b.id = $1`;

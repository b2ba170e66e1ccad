import { issueSentences, questionBankItemInputSchema } from '@lumina/shared';
import type { QuestionBankItemInput } from '@lumina/shared';

export type ItemRowValidation = { ok: true; item: QuestionBankItemInput } | { ok: false; messages: string[] };

/** The item schema's rules (as POST items applies them) on one row of a batch or an import. */
export function validateItemRow(row: unknown): ItemRowValidation {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    return { ok: false, messages: ['an item must be an object'] };
  }
  const parsed = questionBankItemInputSchema.safeParse(row);
  if (!parsed.success) return { ok: false, messages: issueSentences(parsed.error) };
  return { ok: true, item: parsed.data };
}

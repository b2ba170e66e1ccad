import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { ValidationError } from 'class-validator';
import { CreateQuestionBankItemDto } from './dtos/question-bank-item.dto';

export type ItemRowValidation =
  { ok: true; item: CreateQuestionBankItemDto } | { ok: false; messages: string[] };

/** The item DTO's own rules (as the ValidationPipe applies them) on one row of a batch or an import. */
export function validateItemRow(row: unknown): ItemRowValidation {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    return { ok: false, messages: ['an item must be an object'] };
  }
  const item = plainToInstance(CreateQuestionBankItemDto, row);
  const errors = validateSync(item, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length) return { ok: false, messages: flatten(errors) };
  return { ok: true, item };
}

function flatten(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) =>
      prefix ? `${path}: ${message}` : message,
    );
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

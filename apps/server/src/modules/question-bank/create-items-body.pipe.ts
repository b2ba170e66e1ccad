import { BadRequestException, Injectable } from '@nestjs/common';
import type { PipeTransform } from '@nestjs/common';
import {
  createdQuestionBankItemsSchema,
  MAX_ITEMS_PER_BATCH,
  questionBankItemInputSchema,
  questionBankItemSchema,
} from '@lumina/shared';
import type { QuestionBankItemInput } from '@lumina/shared';
import { z } from 'zod/v4';
import { validateItemRow } from './validate-item-row';

/** What POST /question-banks/:id/items takes: one item, or a batch `{ items: [...] }`. */
export const createItemsBodySchema = z
  .union([
    questionBankItemInputSchema,
    z.strictObject({
      items: z.array(questionBankItemInputSchema).min(1).max(MAX_ITEMS_PER_BATCH),
    }),
  ])
  .meta({ example: { question: 'How do I promote the standby replica?', tags: ['failover'] } });

/** What it answers: the item, or `{ items }` for a batch. */
export const createItemsAnswerSchema = z.union([questionBankItemSchema, createdQuestionBankItemsSchema]);

/** What POST /question-banks/:id/items was given: one item, or a batch. */
export interface CreateItemsBody {
  batch: boolean;
  items: QuestionBankItemInput[];
}

/**
 * Validates the body of POST items, which is one item or `{ items: [...] }`. Every problem of every item
 * is reported, prefixed with its position (a union's parse would only say that neither shape fits).
 */
@Injectable()
export class CreateItemsBodyPipe implements PipeTransform<unknown, CreateItemsBody> {
  transform(body: unknown): CreateItemsBody {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new BadRequestException(['the body must be an item, or { "items": [ ... ] }']);
    }
    const record = body as Record<string, unknown>;
    if ('items' in record) {
      const extra = Object.keys(record).filter((key) => key !== 'items');
      const messages = extra.map((key) => `property ${key} should not exist`);
      if (!Array.isArray(record.items)) throw new BadRequestException(['items must be an array of items']);
      if (record.items.length === 0) messages.push('items must hold at least one item');
      if (record.items.length > MAX_ITEMS_PER_BATCH)
        messages.push(`items must hold at most ${MAX_ITEMS_PER_BATCH} items`);
      if (messages.length) throw new BadRequestException(messages);
      const items: QuestionBankItemInput[] = [];
      record.items.forEach((row, index) => {
        const result = validateItemRow(row);
        if (result.ok) items.push(result.item);
        else messages.push(...result.messages.map((message) => `items[${index}]: ${message}`));
      });
      if (messages.length) throw new BadRequestException(messages);
      return { batch: true, items };
    }
    const result = validateItemRow(body);
    if (!result.ok) throw new BadRequestException(result.messages);
    return { batch: false, items: [result.item] };
  }
}

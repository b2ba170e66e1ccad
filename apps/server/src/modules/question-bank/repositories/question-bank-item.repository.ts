import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { ExistingItem, ImportableFields } from '@lumina/eval';
import type { QuestionBankItemInput, QuestionGenerator, QuestionItemSource } from '@lumina/shared';
import { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { QuestionBankItemEntity } from '../entities/question-bank-item.entity';
import {
  BANK_QUESTIONS_SQL,
  CITED_CHUNKS_SQL,
  IMPORT_MATCH_ITEMS_SQL,
  IMPORT_UPDATE_ITEM_SQL,
  TOUCH_BANK_SQL,
} from './question-bank-items.sql';

/** An item ready to store: sources already resolved. */
export interface NewQuestionItem extends QuestionBankItemInput {
  source: QuestionItemSource;
  generator?: QuestionGenerator | null;
  metadata?: Record<string, unknown>;
  /** The feedback the item was made from (source 'feedback'). */
  feedbackId?: string | null;
}

/** More work for the transaction that stores items, given the ids written (e.g. marking their feedback). */
export type AlongWithItems = (manager: EntityManager, itemIds: string[]) => Promise<void>;

/** Which items of a bank a list holds: with a tag, in or out of scope. */
export interface ItemSelection {
  tag?: string;
  inScope?: boolean;
}

/** The changed fields of an item an import matched. */
export interface ItemUpdate {
  id: string;
  changes: Partial<ImportableFields>;
}

/** Items written per statement. */
const INSERT_BATCH = 500;

/** The items of the question banks, kept in the order they were written (seq). */
@Injectable()
export class QuestionBankItemRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  private get items() {
    return this.manager.getRepository(QuestionBankItemEntity);
  }

  /** The selected items of the bank in order, `limit` from `offset`, and how many there are. */
  page(
    bankId: string,
    selection: ItemSelection,
    offset: number,
    limit: number,
  ): Promise<[QuestionBankItemEntity[], number]> {
    const query = this.items
      .createQueryBuilder('item')
      .where('item.bank_id = :bankId', { bankId })
      .orderBy('item.seq', 'ASC')
      .skip(offset)
      .take(limit);
    if (selection.tag !== undefined) query.andWhere(':tag = ANY(item.tags)', { tag: selection.tag });
    if (selection.inScope !== undefined) {
      query.andWhere('item.in_scope = :inScope', { inScope: selection.inScope });
    }
    return query.getManyAndCount();
  }

  /** Every item of the bank in order. */
  all(bankId: string): Promise<QuestionBankItemEntity[]> {
    return this.items
      .createQueryBuilder('item')
      .where('item.bank_id = :bankId', { bankId })
      .orderBy('item.seq', 'ASC')
      .getMany();
  }

  find(bankId: string, itemId: string): Promise<QuestionBankItemEntity | null> {
    return this.items.findOneBy({ id: itemId, bankId });
  }

  /** These items, in the order they were written. */
  async inOrder(ids: string[]): Promise<QuestionBankItemEntity[]> {
    if (ids.length === 0) return [];
    return this.items
      .createQueryBuilder('item')
      .where('item.id IN (:...ids)', { ids })
      .orderBy('item.seq', 'ASC')
      .getMany();
  }

  save(item: QuestionBankItemEntity): Promise<QuestionBankItemEntity> {
    return this.items.save(item);
  }

  /** False when the bank has no item with this id. */
  async delete(bankId: string, itemId: string): Promise<boolean> {
    return Boolean((await this.items.delete({ id: itemId, bankId })).affected);
  }

  /**
   * Stores items in one transaction, in order, and marks the bank changed; returns their ids. `along`
   * runs in the same transaction.
   */
  insert(bankId: string, items: NewQuestionItem[], along?: AlongWithItems): Promise<string[]> {
    return this.manager.transaction(async (manager) => {
      const written = await insertItems(manager, bankId, items);
      await manager.query(TOUCH_BANK_SQL, [bankId]);
      if (along) await along(manager, written);
      return written;
    });
  }

  /** The fields an import compares, of every item of the bank, in insertion order. */
  importMatchItems(bankId: string): Promise<ExistingItem[]> {
    return this.manager.query(IMPORT_MATCH_ITEMS_SQL, [bankId]);
  }

  /**
   * Writes an import in one transaction: the added items in order, then the changed fields of the
   * matched ones. Returns the ids of the added items.
   */
  applyImport(bankId: string, added: NewQuestionItem[], updates: ItemUpdate[]): Promise<string[]> {
    return this.manager.transaction(async (manager) => {
      const written = await insertItems(manager, bankId, added);
      for (const { id, changes } of updates) {
        const value = <F extends keyof ImportableFields>(field: F) => [
          changes[field] !== undefined,
          changes[field] ?? null,
        ];
        await manager.query(IMPORT_UPDATE_ITEM_SQL, [
          id,
          bankId,
          ...value('question'),
          ...value('expectedAnswer'),
          ...value('inScope'),
          changes.expectedSources !== undefined,
          changes.expectedSources !== undefined ? JSON.stringify(changes.expectedSources) : null,
          ...value('language'),
          changes.tags !== undefined,
          changes.tags !== undefined ? [...new Set(changes.tags)] : null,
          ...value('difficulty'),
        ]);
      }
      await manager.query(TOUCH_BANK_SQL, [bankId]);
      return written;
    });
  }

  /** The questions of the bank. */
  async questions(bankId: string): Promise<string[]> {
    const rows: { question: string }[] = await this.manager.query(BANK_QUESTIONS_SQL, [bankId]);
    return rows.map((row) => row.question);
  }

  /** The chunks the bank's items cite as expected sources. */
  async citedChunkIds(bankId: string): Promise<Set<string>> {
    const rows: { chunk_id: string }[] = await this.manager.query(CITED_CHUNKS_SQL, [bankId]);
    return new Set(rows.map((row) => row.chunk_id));
  }
}

async function insertItems(
  manager: EntityManager,
  bankId: string,
  items: NewQuestionItem[],
): Promise<string[]> {
  const written: string[] = [];
  for (let i = 0; i < items.length; i += INSERT_BATCH) {
    const result = await manager.insert(
      QuestionBankItemEntity,
      items.slice(i, i + INSERT_BATCH).map((item) => ({
        bankId,
        question: item.question.trim(),
        expectedAnswer: item.expectedAnswer ?? null,
        inScope: item.inScope ?? true,
        expectedSources: item.expectedSources ?? [],
        language: item.language ?? 'en',
        tags: [...new Set(item.tags ?? [])],
        difficulty: item.difficulty ?? null,
        source: item.source,
        generator: item.generator ?? null,
        metadata: item.metadata ?? {},
        feedbackId: item.feedbackId ?? null,
      })) as QueryDeepPartialEntity<QuestionBankItemEntity>[],
    );
    written.push(...result.identifiers.map((identifier) => String(identifier.id)));
  }
  return written;
}

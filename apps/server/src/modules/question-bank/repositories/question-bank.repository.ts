import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { QuestionBankEntity } from '../entities/question-bank.entity';
import { BANK_SQL, BANK_WITH_ITEM_COUNT } from './question-banks.sql';

/** A bank as the API shows it, with its item count. */
export interface BankRow {
  id: string;
  collection_id: string;
  name: string;
  description: string | null;
  template_id: string | null;
  tags: string[];
  item_count: number;
  judged_item_count: number;
  created_at: Date;
  updated_at: Date;
}

/** Which banks a list holds: name or description containing `search`, made from `templateId`. */
export interface BankSelection {
  search?: string;
  templateId?: string;
  collectionId?: string;
  /** Only banks of these collections (null or absent: of every collection). */
  collectionIds?: readonly string[] | null;
}

export type NewQuestionBank = Pick<
  QuestionBankEntity,
  'name' | 'description' | 'templateId' | 'tags' | 'collectionId'
>;

/** The question banks table. */
@Injectable()
export class QuestionBankRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  private get banks() {
    return this.manager.getRepository(QuestionBankEntity);
  }

  async count(selection: BankSelection): Promise<number> {
    const { where, params } = whereOf(selection);
    const [{ total }]: { total: number }[] = await this.manager.query(
      `SELECT count(*)::int AS total FROM question_banks b ${where}`,
      params,
    );
    return total;
  }

  /** The selected banks, newest first. */
  page(selection: BankSelection, offset: number, limit: number): Promise<BankRow[]> {
    const { where, params } = whereOf(selection);
    return this.manager.query(
      `${BANK_WITH_ITEM_COUNT} ${where}
       ORDER BY b.created_at DESC, b.id
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
  }

  async findRow(id: string): Promise<BankRow | null> {
    const [row]: BankRow[] = await this.manager.query(BANK_SQL, [id]);
    return row ?? null;
  }

  exists(id: string): Promise<boolean> {
    return this.banks.existsBy({ id });
  }

  findById(id: string): Promise<QuestionBankEntity | null> {
    return this.banks.findOneBy({ id });
  }

  insert(bank: NewQuestionBank): Promise<QuestionBankEntity> {
    return this.banks.save(this.banks.create(bank));
  }

  save(bank: QuestionBankEntity): Promise<QuestionBankEntity> {
    return this.banks.save(bank);
  }

  /** Deletes the bank with its items and evaluation runs (FK ON DELETE CASCADE); false when none. */
  async delete(id: string): Promise<boolean> {
    return Boolean((await this.banks.delete({ id })).affected);
  }
}

function whereOf(selection: BankSelection): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const search = selection.search?.trim();
  if (search) {
    params.push(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    conditions.push(`(b.name ILIKE $${params.length} OR b.description ILIKE $${params.length})`);
  }
  if (selection.templateId) {
    params.push(selection.templateId);
    conditions.push(`b.template_id = $${params.length}::uuid`);
  }
  if (selection.collectionId) {
    params.push(selection.collectionId);
    conditions.push(`b.collection_id = $${params.length}::uuid`);
  }
  if (selection.collectionIds) {
    params.push(selection.collectionIds);
    conditions.push(`b.collection_id = ANY($${params.length}::uuid[])`);
  }
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

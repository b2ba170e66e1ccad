import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { questionKey } from '@lumina/eval';
import type { ExistingItem, ImportableFields } from '@lumina/eval';
import type {
  ExpectedSource,
  Page,
  QuestionBankItemInput,
  QuestionGenerator,
  QuestionItemSource,
} from '@lumina/shared';
import { DataSource } from 'typeorm';
import type { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { CreateQuestionBankItemDto, UpdateQuestionBankItemDto } from './dtos/question-bank-item.dto';
import { QuestionBankItemEntity } from './entities/question-bank-item.entity';
import { ExpectedSourceResolver } from './expected-source-resolver';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import { QuestionBankService } from './question-bank.service';
import {
  BANK_QUESTIONS_SQL,
  IMPORT_MATCH_ITEMS_SQL,
  IMPORT_UPDATE_ITEM_SQL,
  TOUCH_BANK_SQL,
} from './repositories/question-bank-items.sql';

/** An item ready to store: sources already resolved. */
export interface NewQuestionItem extends QuestionBankItemInput {
  source: QuestionItemSource;
  generator?: QuestionGenerator | null;
  metadata?: Record<string, unknown>;
}

export interface ItemFilter {
  page?: number;
  limit?: number;
  tag?: string;
  inScope?: boolean;
}

/** The items of a bank, kept in the order they were written. */
@Injectable()
export class QuestionBankItemService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly banks: QuestionBankService,
  ) {}

  private get repository() {
    return this.dataSource.getRepository(QuestionBankItemEntity);
  }

  async findAll(bankId: string, filter: ItemFilter): Promise<Page<QuestionBankItemEntity>> {
    await this.banks.assertExists(bankId);
    const window = pageWindow(filter);
    const query = this.repository
      .createQueryBuilder('item')
      .where('item.bank_id = :bankId', { bankId })
      .orderBy('item.seq', 'ASC')
      .skip(window.offset)
      .take(window.limit);
    if (filter.tag !== undefined) query.andWhere(':tag = ANY(item.tags)', { tag: filter.tag });
    if (filter.inScope !== undefined) query.andWhere('item.in_scope = :inScope', { inScope: filter.inScope });
    const [items, total] = await query.getManyAndCount();
    return pageOf(items, total, window);
  }

  /** Every item of the bank in order (export, evaluation). */
  async allItems(bankId: string): Promise<QuestionBankItemEntity[]> {
    await this.banks.assertExists(bankId);
    return this.repository
      .createQueryBuilder('item')
      .where('item.bank_id = :bankId', { bankId })
      .orderBy('item.seq', 'ASC')
      .getMany();
  }

  async findOne(bankId: string, itemId: string): Promise<QuestionBankItemEntity> {
    const item = await this.repository.findOneBy({ id: itemId, bankId });
    if (!item) {
      await this.banks.assertExists(bankId);
      throw new NotFoundException(`item ${itemId} not found in question bank ${bankId}`);
    }
    return item;
  }

  /** Manual items from the API; an expected source naming an unknown document or chunk is a 400. */
  async create(bankId: string, dtos: CreateQuestionBankItemDto[]): Promise<QuestionBankItemEntity[]> {
    await this.banks.assertExists(bankId);
    const resolved = await new ExpectedSourceResolver(this.dataSource).resolve(
      dtos.map((dto) => dto.expectedSources ?? []),
    );
    const messages = resolved.flatMap((result, index) =>
      result.ok
        ? []
        : result.reasons.map((reason) => (dtos.length > 1 ? `items[${index}]: ${reason}` : reason)),
    );
    if (messages.length) throw new BadRequestException(messages);
    return this.insert(
      bankId,
      dtos.map((dto, index) => ({
        ...fromDto(dto),
        expectedSources: (resolved[index] as { sources: ExpectedSource[] }).sources,
        source: 'manual' as const,
      })),
    );
  }

  /** Store items in one transaction, in order; returns them as stored. */
  async insert(bankId: string, items: NewQuestionItem[]): Promise<QuestionBankItemEntity[]> {
    if (items.length === 0) return [];
    const ids = await this.dataSource.transaction(async (manager) => {
      const written = await insertItems(manager, bankId, items);
      await manager.query(TOUCH_BANK_SQL, [bankId]);
      return written;
    });
    return this.storedInOrder(ids);
  }

  /** The fields an import compares, of every item of the bank, in insertion order. */
  async importMatchItems(bankId: string): Promise<ExistingItem[]> {
    return this.dataSource.query(IMPORT_MATCH_ITEMS_SQL, [bankId]);
  }

  /**
   * Writes an import in one transaction: the added items in order, then the changed fields of the
   * matched ones. Returns the ids of the added items.
   */
  async applyImport(
    bankId: string,
    added: NewQuestionItem[],
    updates: { id: string; changes: Partial<ImportableFields> }[],
  ): Promise<string[]> {
    if (added.length === 0 && updates.length === 0) return [];
    return this.dataSource.transaction(async (manager) => {
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

  private async storedInOrder(ids: string[]): Promise<QuestionBankItemEntity[]> {
    if (ids.length === 0) return [];
    return this.repository
      .createQueryBuilder('item')
      .where('item.id IN (:...ids)', { ids })
      .orderBy('item.seq', 'ASC')
      .getMany();
  }

  async update(
    bankId: string,
    itemId: string,
    dto: UpdateQuestionBankItemDto,
  ): Promise<QuestionBankItemEntity> {
    const item = await this.findOne(bankId, itemId);
    if (dto.expectedSources !== undefined) {
      const [result] = await new ExpectedSourceResolver(this.dataSource).resolve([dto.expectedSources]);
      if (!result.ok) throw new BadRequestException(result.reasons);
      item.expectedSources = result.sources;
    }
    const changes = fromDto(dto);
    if (dto.question !== undefined) item.question = dto.question.trim();
    if (dto.expectedAnswer !== undefined) item.expectedAnswer = changes.expectedAnswer ?? null;
    if (dto.inScope !== undefined) item.inScope = dto.inScope;
    if (dto.language !== undefined) item.language = dto.language;
    if (dto.tags !== undefined) item.tags = [...new Set(dto.tags)];
    if (dto.difficulty !== undefined) item.difficulty = dto.difficulty ?? null;
    return this.repository.save(item);
  }

  async remove(bankId: string, itemId: string): Promise<void> {
    const result = await this.repository.delete({ id: itemId, bankId });
    if (!result.affected) {
      await this.banks.assertExists(bankId);
      throw new NotFoundException(`item ${itemId} not found in question bank ${bankId}`);
    }
  }

  /** Questions already in the bank (normalised), to skip duplicates when generating. */
  async questionKeys(bankId: string): Promise<Set<string>> {
    const rows: { question: string }[] = await this.dataSource.query(BANK_QUESTIONS_SQL, [bankId]);
    return new Set(rows.map((row) => questionKey(row.question)));
  }
}

async function insertItems(
  manager: EntityManager,
  bankId: string,
  items: NewQuestionItem[],
): Promise<string[]> {
  const written: string[] = [];
  for (let i = 0; i < items.length; i += 500) {
    const result = await manager.insert(
      QuestionBankItemEntity,
      items.slice(i, i + 500).map((item) => ({
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
      })) as QueryDeepPartialEntity<QuestionBankItemEntity>[],
    );
    written.push(...result.identifiers.map((identifier) => String(identifier.id)));
  }
  return written;
}

function fromDto(dto: Partial<CreateQuestionBankItemDto>): Omit<NewQuestionItem, 'source'> {
  return {
    question: dto.question ?? '',
    expectedAnswer: dto.expectedAnswer ?? null,
    inScope: dto.inScope,
    language: dto.language,
    tags: dto.tags,
    difficulty: dto.difficulty ?? null,
  };
}

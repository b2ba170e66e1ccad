import { Injectable } from '@nestjs/common';
import { questionKey } from '@lumina/eval';
import type { ExistingItem } from '@lumina/eval';
import type { ExpectedSource, Page, QuestionBankItemInput } from '@lumina/shared';
import type { QuestionBankItemEntity } from './entities/question-bank-item.entity';
import { ExpectedSourceResolver } from './expected-source-resolver';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import { QuestionBankService } from './question-bank.service';
import { QuestionBankItemRepository } from './repositories/question-bank-item.repository';
import type {
  AlongWithItems,
  ItemSelection,
  ItemUpdate,
  NewQuestionItem,
} from './repositories/question-bank-item.repository';
import { InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';

export interface ItemFilter extends ItemSelection {
  page?: number;
  limit?: number;
}

/** The items of a bank, kept in the order they were written. */
@Injectable()
export class QuestionBankItemService {
  constructor(
    private readonly items: QuestionBankItemRepository,
    private readonly banks: QuestionBankService,
    private readonly sources: ExpectedSourceResolver,
  ) {}

  async findAll(bankId: string, filter: ItemFilter): Promise<Page<QuestionBankItemEntity>> {
    await this.banks.assertExists(bankId);
    const window = pageWindow(filter);
    const selection = { tag: filter.tag, inScope: filter.inScope };
    const [items, total] = await this.items.page(bankId, selection, window.offset, window.limit);
    return pageOf(items, total, window);
  }

  /** Every item of the bank in order (export, evaluation). */
  async allItems(bankId: string): Promise<QuestionBankItemEntity[]> {
    await this.banks.assertExists(bankId);
    return this.items.all(bankId);
  }

  async findOne(bankId: string, itemId: string): Promise<QuestionBankItemEntity> {
    const item = await this.items.find(bankId, itemId);
    if (!item) {
      await this.banks.assertExists(bankId);
      throw new NotFoundError(`item ${itemId} not found in question bank ${bankId}`);
    }
    return item;
  }

  /** Manual items from the API; an expected source naming an unknown document or chunk is a 400. */
  async create(bankId: string, dtos: QuestionBankItemInput[]): Promise<QuestionBankItemEntity[]> {
    const collectionId = await this.banks.collectionOf(bankId);
    const resolved = await this.sources.resolve(
      dtos.map((dto) => dto.expectedSources ?? []),
      { collectionId },
    );
    const messages = resolved.flatMap((result, index) =>
      result.ok
        ? []
        : result.reasons.map((reason) => (dtos.length > 1 ? `items[${index}]: ${reason}` : reason)),
    );
    if (messages.length) throw new InvalidRequestError(messages);
    return this.insert(
      bankId,
      dtos.map((dto, index) => ({
        ...fromDto(dto),
        expectedSources: (resolved[index] as { sources: ExpectedSource[] }).sources,
        source: 'manual' as const,
      })),
    );
  }

  /** Store items in one transaction, in order (with `along` in it too); returns them as stored. */
  async insert(
    bankId: string,
    items: NewQuestionItem[],
    along?: AlongWithItems,
  ): Promise<QuestionBankItemEntity[]> {
    if (items.length === 0) return [];
    return this.items.inOrder(await this.items.insert(bankId, items, along));
  }

  /**
   * Items written by a service on a reviewer's behalf (e.g. from feedback): their expected sources are
   * checked within the bank's collection like the API's (a 400 names the entry by `label(index)`), then
   * they are stored as `insert` does.
   */
  async createChecked(
    bankId: string,
    items: NewQuestionItem[],
    label: (index: number) => string,
    along?: AlongWithItems,
  ): Promise<QuestionBankItemEntity[]> {
    const collectionId = await this.banks.collectionOf(bankId);
    const resolved = await this.sources.resolve(
      items.map((item) => item.expectedSources ?? []),
      { collectionId },
    );
    const messages = resolved.flatMap((result, index) =>
      result.ok ? [] : result.reasons.map((reason) => `${label(index)}: ${reason}`),
    );
    if (messages.length) throw new InvalidRequestError(messages);
    return this.insert(
      bankId,
      items.map((item, index) => ({
        ...item,
        expectedSources: (resolved[index] as { sources: ExpectedSource[] }).sources,
      })),
      along,
    );
  }

  /**
   * The sources among `proposed` that are passages or documents of the bank's collection (each checked
   * on its own; the others are left out): what a reviewer is offered when it confirms none itself.
   */
  async knownSources(bankId: string, proposed: ExpectedSource[]): Promise<ExpectedSource[]> {
    if (proposed.length === 0) return [];
    const collectionId = await this.banks.collectionOf(bankId);
    const resolved = await this.sources.resolve(
      proposed.map((source) => [source]),
      { collectionId },
    );
    return resolved.flatMap((result) => (result.ok ? result.sources : []));
  }

  /** The fields an import compares, of every item of the bank, in insertion order. */
  async importMatchItems(bankId: string): Promise<ExistingItem[]> {
    return this.items.importMatchItems(bankId);
  }

  /**
   * Writes an import in one transaction: the added items in order, then the changed fields of the
   * matched ones. Returns the ids of the added items.
   */
  async applyImport(bankId: string, added: NewQuestionItem[], updates: ItemUpdate[]): Promise<string[]> {
    if (added.length === 0 && updates.length === 0) return [];
    return this.items.applyImport(bankId, added, updates);
  }

  async update(
    bankId: string,
    itemId: string,
    dto: Partial<QuestionBankItemInput>,
  ): Promise<QuestionBankItemEntity> {
    const item = await this.findOne(bankId, itemId);
    if (dto.expectedSources !== undefined) {
      const [result] = await this.sources.resolve([dto.expectedSources], {
        collectionId: await this.banks.collectionOf(bankId),
      });
      if (!result.ok) throw new InvalidRequestError(result.reasons);
      item.expectedSources = result.sources;
    }
    const changes = fromDto(dto);
    if (dto.question !== undefined) item.question = dto.question.trim();
    if (dto.expectedAnswer !== undefined) item.expectedAnswer = changes.expectedAnswer ?? null;
    if (dto.inScope !== undefined) item.inScope = dto.inScope;
    if (dto.language !== undefined) item.language = dto.language;
    if (dto.tags !== undefined) item.tags = [...new Set(dto.tags)];
    if (dto.difficulty !== undefined) item.difficulty = dto.difficulty ?? null;
    return this.items.save(item);
  }

  async remove(bankId: string, itemId: string): Promise<void> {
    if (!(await this.items.delete(bankId, itemId))) {
      await this.banks.assertExists(bankId);
      throw new NotFoundError(`item ${itemId} not found in question bank ${bankId}`);
    }
  }

  /** Questions already in the bank (normalised), to skip duplicates when generating. */
  async questionKeys(bankId: string): Promise<Set<string>> {
    return new Set((await this.items.questions(bankId)).map(questionKey));
  }
}

function fromDto(dto: Partial<QuestionBankItemInput>): Omit<NewQuestionItem, 'source'> {
  return {
    question: dto.question ?? '',
    expectedAnswer: dto.expectedAnswer ?? null,
    inScope: dto.inScope,
    language: dto.language,
    tags: dto.tags,
    difficulty: dto.difficulty ?? null,
  };
}

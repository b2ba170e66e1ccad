import { Injectable } from '@nestjs/common';
import type { Page, QuestionBank, QuestionBankInput } from '@lumina/shared';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import { QuestionTemplateService } from './question-template.service';
import { QuestionBankRepository } from './repositories/question-bank.repository';
import type { BankRow, BankSelection } from './repositories/question-bank.repository';
import { InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';
import { ALL_COLLECTIONS } from '../auth/principal';
import type { CollectionAccess } from '../auth/principal';
import { manageableIds } from '../collections/collection-work.guard';
import { CollectionScope } from '../collections/collection-scope.service';

export interface BankFilter extends BankSelection {
  page?: number;
  limit?: number;
}

/** Question banks: paginated, searchable lists and CRUD. A bank's item count is counted when read. */
@Injectable()
export class QuestionBankService {
  constructor(
    private readonly banks: QuestionBankRepository,
    private readonly templates: QuestionTemplateService,
    private readonly collections: CollectionScope,
  ) {}

  /** The banks of the collections `access` manages (every bank for an admin key). */
  async findAll(filter: BankFilter, access: CollectionAccess = ALL_COLLECTIONS): Promise<Page<QuestionBank>> {
    const window = pageWindow(filter);
    const selection = {
      search: filter.search,
      templateId: filter.templateId,
      collectionId: filter.collectionId,
      collectionIds: manageableIds(access),
    };
    const total = await this.banks.count(selection);
    const rows = await this.banks.page(selection, window.offset, window.limit);
    return pageOf(rows.map(toBank), total, window);
  }

  /** The banks made from a template (404 when the template does not exist). */
  async findByTemplateId(
    templateId: string,
    page: { page?: number; limit?: number },
    access: CollectionAccess = ALL_COLLECTIONS,
  ): Promise<Page<QuestionBank>> {
    await this.templates.findOne(templateId);
    return this.findAll({ ...page, templateId }, access);
  }

  async findOne(id: string): Promise<QuestionBank> {
    const row = await this.banks.findRow(id);
    if (!row) throw new NotFoundError(`question bank ${id} not found`);
    return toBank(row);
  }

  /** The bank's collection (404 when the bank does not exist). */
  async collectionOf(id: string): Promise<string> {
    const row = await this.banks.findRow(id);
    if (!row) throw new NotFoundError(`question bank ${id} not found`);
    return row.collection_id;
  }

  /** Throws 404 unless the bank exists. */
  async assertExists(id: string): Promise<void> {
    if (!(await this.banks.exists(id))) throw new NotFoundError(`question bank ${id} not found`);
  }

  /** A bank in `dto.collectionId` (the default collection when absent), which `access` must write. */
  async create(dto: QuestionBankInput, access: CollectionAccess = ALL_COLLECTIONS): Promise<QuestionBank> {
    if (dto.templateId) await this.assertTemplate(dto.templateId);
    const collectionId = await this.collections.writable(access, dto.collectionId, 'question banks');
    const saved = await this.banks.insert({
      collectionId,
      name: dto.name.trim(),
      description: dto.description ?? null,
      templateId: dto.templateId ?? null,
      tags: dedupe(dto.tags ?? []),
    });
    return this.findOne(saved.id);
  }

  async update(id: string, dto: Partial<QuestionBankInput>): Promise<QuestionBank> {
    const bank = await this.banks.findById(id);
    if (!bank) throw new NotFoundError(`question bank ${id} not found`);
    if (dto.templateId) await this.assertTemplate(dto.templateId);
    if (dto.name !== undefined) bank.name = dto.name.trim();
    if (dto.description !== undefined) bank.description = dto.description;
    if (dto.templateId !== undefined) bank.templateId = dto.templateId;
    if (dto.tags !== undefined) bank.tags = dedupe(dto.tags);
    await this.banks.save(bank);
    return this.findOne(id);
  }

  /** Deletes the bank with its items and evaluation runs (FK ON DELETE CASCADE). */
  async remove(id: string): Promise<void> {
    if (!(await this.banks.delete(id))) throw new NotFoundError(`question bank ${id} not found`);
  }

  private async assertTemplate(templateId: string): Promise<void> {
    try {
      await this.templates.findOne(templateId);
    } catch (error) {
      if (error instanceof NotFoundError)
        throw new InvalidRequestError([`templateId: question template ${templateId} does not exist`]);
      throw error;
    }
  }
}

function toBank(row: BankRow): QuestionBank {
  return {
    id: row.id,
    collectionId: row.collection_id,
    name: row.name,
    description: row.description,
    templateId: row.template_id,
    tags: row.tags,
    itemCount: row.item_count,
    judgedItemCount: row.judged_item_count,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

function dedupe(values: string[]): string[] {
  return [...new Set(values.map((value) => value.trim()).filter(Boolean))];
}

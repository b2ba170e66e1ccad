import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Page, QuestionBank } from '@lumina/shared';
import { DataSource } from 'typeorm';
import type { CreateQuestionBankDto, UpdateQuestionBankDto } from './dtos/question-bank.dto';
import { QuestionBankEntity } from './entities/question-bank.entity';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import { QuestionTemplateService } from './question-template.service';
import { InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';

interface BankRow {
  id: string;
  name: string;
  description: string | null;
  template_id: string | null;
  tags: string[];
  item_count: number;
  created_at: Date;
  updated_at: Date;
}

export interface BankFilter {
  page?: number;
  limit?: number;
  search?: string;
  templateId?: string;
}

/** Question banks: paginated, searchable lists and CRUD. A bank's item count is counted when read. */
@Injectable()
export class QuestionBankService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly templates: QuestionTemplateService,
  ) {}

  private get repository() {
    return this.dataSource.getRepository(QuestionBankEntity);
  }

  async findAll(filter: BankFilter): Promise<Page<QuestionBank>> {
    const window = pageWindow(filter);
    const conditions: string[] = [];
    const params: unknown[] = [];
    const search = filter.search?.trim();
    if (search) {
      params.push(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      conditions.push(`(b.name ILIKE $${params.length} OR b.description ILIKE $${params.length})`);
    }
    if (filter.templateId) {
      params.push(filter.templateId);
      conditions.push(`b.template_id = $${params.length}::uuid`);
    }
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    const [{ total }] = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM question_banks b ${where}`,
      params,
    );
    const rows: BankRow[] = await this.dataSource.query(
      `SELECT b.*, (SELECT count(*) FROM question_bank_items i WHERE i.bank_id = b.id)::int AS item_count
       FROM question_banks b ${where}
       ORDER BY b.created_at DESC, b.id
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, window.limit, window.offset],
    );
    return pageOf(rows.map(toBank), total, window);
  }

  /** The banks made from a template (404 when the template does not exist). */
  async findByTemplateId(
    templateId: string,
    page: { page?: number; limit?: number },
  ): Promise<Page<QuestionBank>> {
    await this.templates.findOne(templateId);
    return this.findAll({ ...page, templateId });
  }

  async findOne(id: string): Promise<QuestionBank> {
    const [row]: BankRow[] = await this.dataSource.query(
      `SELECT b.*, (SELECT count(*) FROM question_bank_items i WHERE i.bank_id = b.id)::int AS item_count
       FROM question_banks b WHERE b.id = $1`,
      [id],
    );
    if (!row) throw new NotFoundError(`question bank ${id} not found`);
    return toBank(row);
  }

  /** Throws 404 unless the bank exists. */
  async assertExists(id: string): Promise<void> {
    if (!(await this.repository.existsBy({ id }))) throw new NotFoundError(`question bank ${id} not found`);
  }

  async create(dto: CreateQuestionBankDto): Promise<QuestionBank> {
    if (dto.templateId) await this.assertTemplate(dto.templateId);
    const saved = await this.repository.save(
      this.repository.create({
        name: dto.name.trim(),
        description: dto.description ?? null,
        templateId: dto.templateId ?? null,
        tags: dedupe(dto.tags ?? []),
      }),
    );
    return this.findOne(saved.id);
  }

  async update(id: string, dto: UpdateQuestionBankDto): Promise<QuestionBank> {
    const bank = await this.repository.findOneBy({ id });
    if (!bank) throw new NotFoundError(`question bank ${id} not found`);
    if (dto.templateId) await this.assertTemplate(dto.templateId);
    if (dto.name !== undefined) bank.name = dto.name.trim();
    if (dto.description !== undefined) bank.description = dto.description;
    if (dto.templateId !== undefined) bank.templateId = dto.templateId;
    if (dto.tags !== undefined) bank.tags = dedupe(dto.tags);
    await this.repository.save(bank);
    return this.findOne(id);
  }

  /** Deletes the bank with its items and evaluation runs (FK ON DELETE CASCADE). */
  async remove(id: string): Promise<void> {
    const result = await this.repository.delete({ id });
    if (!result.affected) throw new NotFoundError(`question bank ${id} not found`);
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
    name: row.name,
    description: row.description,
    templateId: row.template_id,
    tags: row.tags,
    itemCount: row.item_count,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

function dedupe(values: string[]): string[] {
  return [...new Set(values.map((value) => value.trim()).filter(Boolean))];
}

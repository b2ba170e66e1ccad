import { Injectable } from '@nestjs/common';
import type { Page, QuestionTemplateInput } from '@lumina/shared';
import type { QuestionTemplateEntity } from './entities/question-template.entity';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import { QuestionTemplateRepository } from './repositories/question-template.repository';
import { NotFoundError } from '../../common/errors/domain-errors';

@Injectable()
export class QuestionTemplateService {
  constructor(private readonly templates: QuestionTemplateRepository) {}

  async findAll(query: { page?: number; limit?: number }): Promise<Page<QuestionTemplateEntity>> {
    const window = pageWindow(query);
    const [items, total] = await this.templates.page(window.offset, window.limit);
    return pageOf(items, total, window);
  }

  async findOne(id: string): Promise<QuestionTemplateEntity> {
    const template = await this.templates.findById(id);
    if (!template) throw new NotFoundError(`question template ${id} not found`);
    return template;
  }

  create(dto: QuestionTemplateInput): Promise<QuestionTemplateEntity> {
    return this.templates.insert({
      name: dto.name.trim(),
      kind: dto.kind,
      description: dto.description ?? null,
      promptTemplate: dto.promptTemplate,
    });
  }

  async update(id: string, dto: Partial<QuestionTemplateInput>): Promise<QuestionTemplateEntity> {
    const template = await this.findOne(id);
    if (dto.name !== undefined) template.name = dto.name.trim();
    if (dto.kind !== undefined) template.kind = dto.kind;
    if (dto.description !== undefined) template.description = dto.description;
    if (dto.promptTemplate !== undefined) template.promptTemplate = dto.promptTemplate;
    return this.templates.save(template);
  }

  /** Banks made from the template keep their items; their templateId becomes null (FK ON DELETE SET NULL). */
  async remove(id: string): Promise<void> {
    if (!(await this.templates.delete(id))) throw new NotFoundError(`question template ${id} not found`);
  }
}

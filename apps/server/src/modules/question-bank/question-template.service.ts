import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Page } from '@lumina/shared';
import { DataSource } from 'typeorm';
import type { CreateQuestionTemplateDto, UpdateQuestionTemplateDto } from './dtos/question-template.dto';
import { QuestionTemplateEntity } from './entities/question-template.entity';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import { NotFoundError } from '../../common/errors/domain-errors';

@Injectable()
export class QuestionTemplateService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get repository() {
    return this.dataSource.getRepository(QuestionTemplateEntity);
  }

  async findAll(query: { page?: number; limit?: number }): Promise<Page<QuestionTemplateEntity>> {
    const window = pageWindow(query);
    const [items, total] = await this.repository.findAndCount({
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: window.offset,
      take: window.limit,
    });
    return pageOf(items, total, window);
  }

  async findOne(id: string): Promise<QuestionTemplateEntity> {
    const template = await this.repository.findOneBy({ id });
    if (!template) throw new NotFoundError(`question template ${id} not found`);
    return template;
  }

  create(dto: CreateQuestionTemplateDto): Promise<QuestionTemplateEntity> {
    return this.repository.save(
      this.repository.create({
        name: dto.name.trim(),
        kind: dto.kind,
        description: dto.description ?? null,
        promptTemplate: dto.promptTemplate,
      }),
    );
  }

  async update(id: string, dto: UpdateQuestionTemplateDto): Promise<QuestionTemplateEntity> {
    const template = await this.findOne(id);
    if (dto.name !== undefined) template.name = dto.name.trim();
    if (dto.kind !== undefined) template.kind = dto.kind;
    if (dto.description !== undefined) template.description = dto.description;
    if (dto.promptTemplate !== undefined) template.promptTemplate = dto.promptTemplate;
    return this.repository.save(template);
  }

  /** Banks made from the template keep their items; their templateId becomes null (FK ON DELETE SET NULL). */
  async remove(id: string): Promise<void> {
    const result = await this.repository.delete({ id });
    if (!result.affected) throw new NotFoundError(`question template ${id} not found`);
  }
}

import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { QuestionTemplateEntity } from '../entities/question-template.entity';

export type NewQuestionTemplate = Pick<
  QuestionTemplateEntity,
  'name' | 'kind' | 'description' | 'promptTemplate'
>;

/** The question templates table. */
@Injectable()
export class QuestionTemplateRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  private get templates() {
    return this.manager.getRepository(QuestionTemplateEntity);
  }

  /** Newest first, and how many there are. */
  page(offset: number, limit: number): Promise<[QuestionTemplateEntity[], number]> {
    return this.templates.findAndCount({
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: offset,
      take: limit,
    });
  }

  findById(id: string): Promise<QuestionTemplateEntity | null> {
    return this.templates.findOneBy({ id });
  }

  insert(template: NewQuestionTemplate): Promise<QuestionTemplateEntity> {
    return this.templates.save(this.templates.create(template));
  }

  save(template: QuestionTemplateEntity): Promise<QuestionTemplateEntity> {
    return this.templates.save(template);
  }

  /** False when there is no template with this id. */
  async delete(id: string): Promise<boolean> {
    return Boolean((await this.templates.delete({ id })).affected);
  }
}

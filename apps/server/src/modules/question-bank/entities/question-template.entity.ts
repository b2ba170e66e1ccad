import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { QuestionTemplateKind } from '@lumina/shared';

/** How items are written for a bank: the kind of question and the prompt the generator fills in. */
@Entity({ name: 'question_templates' })
export class QuestionTemplateEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  kind!: QuestionTemplateKind;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: 'prompt_template', type: 'text' })
  promptTemplate!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

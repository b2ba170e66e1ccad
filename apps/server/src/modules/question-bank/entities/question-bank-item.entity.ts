import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type {
  ExpectedSource,
  QuestionDifficulty,
  QuestionGenerator,
  QuestionItemSource,
} from '@lumina/shared';
import { QuestionBankEntity } from './question-bank.entity';

/** One question of a bank with the passages that answer it (empty for out-of-scope questions). */
@Entity({ name: 'question_bank_items' })
export class QuestionBankItemEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** Insertion order (an identity column written by PostgreSQL). */
  @Column({
    type: 'bigint',
    insert: false,
    update: false,
    select: false,
    transformer: { to: (v: number) => v, from: Number },
  })
  seq!: number;

  @Column({ name: 'bank_id', type: 'uuid' })
  bankId!: string;

  @ManyToOne(() => QuestionBankEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'bank_id' })
  bank?: QuestionBankEntity;

  @Column({ type: 'text' })
  question!: string;

  @Column({ name: 'expected_answer', type: 'text', nullable: true })
  expectedAnswer!: string | null;

  @Column({ name: 'in_scope', type: 'boolean', default: true })
  inScope!: boolean;

  @Column({ name: 'expected_sources', type: 'jsonb', default: () => `'[]'::jsonb` })
  expectedSources!: ExpectedSource[];

  @Column({ type: 'text', default: 'en' })
  language!: string;

  @Column({ type: 'text', array: true, default: () => `'{}'` })
  tags!: string[];

  @Column({ type: 'text', nullable: true })
  difficulty!: QuestionDifficulty | null;

  @Column({ type: 'text', default: 'manual' })
  source!: QuestionItemSource;

  @Column({ type: 'text', nullable: true })
  generator!: QuestionGenerator | null;

  @Column({ type: 'jsonb', default: () => `'{}'::jsonb` })
  metadata!: Record<string, unknown>;

  /** The feedback the item was made from; null when none was, or that feedback is gone. */
  @Column({ name: 'feedback_id', type: 'uuid', nullable: true })
  feedbackId!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

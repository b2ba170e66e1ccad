import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { AblationGenerator, AblationStatus, SearchSettings } from '@lumina/shared';
import { QuestionBankEntity } from '../../question-bank/entities/question-bank.entity';

/** One bank evaluated under every combination the server can run; each combination is an eval run. */
@Entity({ name: 'ablations' })
export class AblationEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'bank_id', type: 'uuid' })
  bankId!: string;

  @ManyToOne(() => QuestionBankEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'bank_id' })
  bank?: QuestionBankEntity;

  @Column({ type: 'text', default: 'queued' })
  status!: AblationStatus;

  /** The resolved settings every combination shares; each run varies the four switches. */
  @Column({ name: 'base_settings', type: 'jsonb' })
  baseSettings!: SearchSettings;

  /** Who wrote expansions and HyDE passages: the configured LLM, or offline PRF. */
  @Column({ type: 'text' })
  generator!: AblationGenerator;

  @Column({ name: 'rerank_available', type: 'boolean' })
  rerankAvailable!: boolean;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}

import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { LearnedRankingModel } from '@lumina/rag';
import type {
  RerankerFitStatus,
  RerankerLearner,
  RerankerMeasurement,
  RerankerModelSummary,
} from '@lumina/shared';

/** What a list shows of a fitted model, kept beside it so that lists never read the model itself. */
export type RerankerModelDigest = Pick<RerankerModelSummary, 'training' | 'importance'>;
import { QuestionBankEntity } from '../../question-bank/entities/question-bank.entity';

/** A learned reranker fitted on a question bank: the model, how it measured, and whether it is active. */
@Entity({ name: 'reranker_models' })
export class RerankerModelEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text', unique: true })
  version!: string;

  /** The bank it was fitted on (null once the bank is deleted; its name stays). */
  @Column({ name: 'bank_id', type: 'uuid', nullable: true })
  bankId!: string | null;

  @ManyToOne(() => QuestionBankEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'bank_id' })
  bank?: QuestionBankEntity;

  @Column({ name: 'bank_name', type: 'text', nullable: true })
  bankName!: string | null;

  /** The collection of its bank: the one whose searches it serves when active. */
  @Column({ name: 'collection_id', type: 'uuid' })
  collectionId!: string;

  @Column({ type: 'text', default: 'queued' })
  status!: RerankerFitStatus;

  @Column({ type: 'text' })
  learner!: RerankerLearner;

  @Column({ name: 'candidate_k', type: 'integer' })
  candidateK!: number;

  @Column({ name: 'activate_when_ready', type: 'boolean', default: true })
  activateWhenReady!: boolean;

  @Column({ type: 'boolean', default: false })
  active!: boolean;

  @Column({ type: 'jsonb', nullable: true })
  model!: LearnedRankingModel | null;

  @Column({ type: 'jsonb', nullable: true })
  summary!: RerankerModelDigest | null;

  @Column({ type: 'jsonb', nullable: true })
  measurement!: RerankerMeasurement | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'text', nullable: true })
  note!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}

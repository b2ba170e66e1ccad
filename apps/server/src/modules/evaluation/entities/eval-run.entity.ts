import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type {
  AnswerMetrics,
  EvalItemResult,
  EvalMetricInterval,
  EvalRunStatus,
  RefusalRates,
  SearchSettings,
} from '@lumina/shared';
import { QuestionBankEntity } from '../../question-bank/entities/question-bank.entity';

/** One evaluation of a question bank with given search settings: what ran, on what, and what it scored. */
@Entity({ name: 'eval_runs' })
export class EvalRunEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'bank_id', type: 'uuid' })
  bankId!: string;

  @ManyToOne(() => QuestionBankEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'bank_id' })
  bank?: QuestionBankEntity;

  @Column({ type: 'text', default: 'queued' })
  status!: EvalRunStatus;

  /** The resolved settings every item was searched with. */
  @Column({ type: 'jsonb' })
  settings!: SearchSettings;

  /** Pipeline options (fusion weights, RRF k, ...) in force for the run. */
  @Column({ name: 'search_options', type: 'jsonb', default: () => `'{}'::jsonb` })
  searchOptions!: Record<string, unknown>;

  @Column({ name: 'embedding_model', type: 'text', nullable: true })
  embeddingModel!: string | null;

  @Column({ name: 'chat_model', type: 'text', nullable: true })
  chatModel!: string | null;

  @Column({ name: 'prompt_versions', type: 'jsonb', default: () => `'{}'::jsonb` })
  promptVersions!: Record<string, string | null>;

  /** sha256 of the items evaluated (questions, scope, expected sources, in order). */
  @Column({ name: 'dataset_hash', type: 'text', nullable: true })
  datasetHash!: string | null;

  @Column({ name: 'item_count', type: 'integer', default: 0 })
  itemCount!: number;

  @Column({ name: 'scored_items', type: 'integer', default: 0 })
  scoredItems!: number;

  @Column({ type: 'jsonb', nullable: true })
  metrics!: Record<string, number> | null;

  @Column({ type: 'jsonb', nullable: true })
  intervals!: Record<string, EvalMetricInterval> | null;

  @Column({ type: 'jsonb', nullable: true })
  refusal!: RefusalRates | null;

  @Column({ type: 'jsonb', nullable: true })
  answers!: AnswerMetrics | null;

  @Column({ name: 'per_item', type: 'jsonb', nullable: true })
  perItem!: EvalItemResult[] | null;

  @Column({ type: 'jsonb', nullable: true })
  timings!: Record<string, number> | null;

  /** The ablation this run is one combination of; null for a run started on its own. */
  @Column({ name: 'ablation_id', type: 'uuid', nullable: true })
  ablationId!: string | null;

  /** Calls to the chat model or rerank endpoint the run's searches made; null for runs before it was counted. */
  @Column({ name: 'llm_calls', type: 'integer', nullable: true })
  llmCalls!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}

import { Column, CreateDateColumn, Entity, JoinColumn, OneToOne, PrimaryGeneratedColumn } from 'typeorm';
import type {
  AdaptiveExpansionDecision,
  AnswerabilityVerdict,
  AnswerGenerator,
  AnswerSource,
  ChatTimings,
  ChatTokenUsage,
  RetrievalTrace,
  SearchSettings,
  TracePassage,
} from '@lumina/shared';
import { MessageEntity } from './message.entity';

/** How an answer came about: what was searched, what was found, what wrote it and how long it took. */
@Entity({ name: 'retrieval_traces' })
export class RetrievalTraceEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'message_id', type: 'uuid', unique: true })
  messageId!: string;

  @OneToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: MessageEntity;

  @Column({ type: 'text' })
  query!: string;

  @Column({ name: 'standalone_query', type: 'text' })
  standaloneQuery!: string;

  @Column({ type: 'text' })
  rewrite!: RetrievalTrace['rewrite'];

  @Column({ name: 'rewrite_reason', type: 'text', nullable: true })
  rewriteReason!: RetrievalTrace['rewriteReason'];

  @Column({ type: 'jsonb', nullable: true })
  settings!: SearchSettings | null;

  @Column({ type: 'jsonb', nullable: true })
  expansions!: RetrievalTrace['expansions'];

  @Column({ type: 'jsonb', nullable: true })
  hyde!: RetrievalTrace['hyde'];

  @Column({ type: 'jsonb', nullable: true })
  adaptive!: AdaptiveExpansionDecision | null;

  @Column({ name: 'below_threshold', type: 'boolean', default: false })
  belowThreshold!: boolean;

  @Column({ type: 'jsonb', nullable: true })
  answerability!: AnswerabilityVerdict | null;

  @Column({ type: 'jsonb', default: () => `'[]'::jsonb` })
  retrieved!: TracePassage[];

  @Column({ name: 'prompt_version', type: 'text', nullable: true })
  promptVersion!: string | null;

  @Column({ type: 'text', nullable: true })
  model!: string | null;

  @Column({ type: 'text' })
  generator!: AnswerGenerator;

  @Column({ type: 'text' })
  source!: AnswerSource;

  @Column({ type: 'jsonb', nullable: true })
  usage!: ChatTokenUsage | null;

  @Column({ type: 'jsonb', default: () => `'{}'::jsonb` })
  timings!: ChatTimings;

  @Column({ name: 'not_found', type: 'boolean', default: false })
  notFound!: boolean;

  @Column({ type: 'boolean', default: false })
  uncited!: boolean;

  @Column({ name: 'dropped_markers', type: 'integer', array: true, default: () => `'{}'` })
  droppedMarkers!: number[];

  @Column({ type: 'jsonb', default: () => `'[]'::jsonb` })
  warnings!: string[];

  /** The collections searched (empty for an answer from general knowledge). */
  @Column({ name: 'collection_ids', type: 'uuid', array: true, default: () => `'{}'` })
  collectionIds!: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { SyncFailure, SyncRunStatus } from '@lumina/shared';

/** One sync of a source and its report. */
@Entity({ name: 'source_sync_runs' })
export class SourceSyncRunEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'source_id', type: 'uuid' })
  sourceId!: string;

  @Column({ type: 'text' })
  status!: SyncRunStatus;

  @Column({ type: 'text' })
  trigger!: 'manual' | 'schedule';

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  @Column({ name: 'duration_ms', type: 'integer', nullable: true })
  durationMs!: number | null;

  @Column({ type: 'integer' })
  added!: number;

  @Column({ type: 'integer' })
  updated!: number;

  @Column({ type: 'integer' })
  unchanged!: number;

  @Column({ type: 'integer' })
  deleted!: number;

  @Column({ type: 'integer' })
  failed!: number;

  @Column({ type: 'jsonb' })
  failures!: SyncFailure[];

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'cursor_before', type: 'text', nullable: true })
  cursorBefore!: string | null;

  @Column({ name: 'cursor_after', type: 'text', nullable: true })
  cursorAfter!: string | null;
}

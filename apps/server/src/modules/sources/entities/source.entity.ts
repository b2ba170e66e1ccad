import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { SourceConfig, SourceKind } from '@lumina/shared';

/** A folder or Git repository a collection keeps in sync with (see the sources migration). */
@Entity({ name: 'sources' })
export class SourceEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'collection_id', type: 'uuid' })
  collectionId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  kind!: SourceKind;

  @Column({ type: 'jsonb' })
  config!: SourceConfig;

  /** Sync every this many minutes; null: only when asked. */
  @Column({ name: 'schedule_minutes', type: 'integer', nullable: true })
  scheduleMinutes!: number | null;

  @Column({ name: 'next_sync_at', type: 'timestamptz', nullable: true })
  nextSyncAt!: Date | null;

  /** A sync was asked for and has not started yet. */
  @Column({ name: 'sync_requested_at', type: 'timestamptz', nullable: true })
  syncRequestedAt!: Date | null;

  /** What the last complete sync reached: a Git source's commit. */
  @Column({ type: 'text', nullable: true })
  cursor!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A file a source brought in, with what tells a later sync whether it changed. */
@Entity({ name: 'source_items' })
export class SourceItemEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'source_id', type: 'uuid' })
  sourceId!: string;

  /** Its path relative to the folder or repository root. */
  @Column({ type: 'text' })
  key!: string;

  /** Size and modification time (folder), blob id (Git): equal means unchanged, without reading it. */
  @Column({ type: 'text', nullable: true })
  fingerprint!: string | null;

  /** sha256 of the bytes indexed; null until indexed once. */
  @Column({ name: 'content_hash', type: 'text', nullable: true })
  contentHash!: string | null;

  @Column({ name: 'document_id', type: 'uuid', nullable: true })
  documentId!: string | null;

  @Column({ type: 'text', nullable: true })
  etag!: string | null;

  @Column({ name: 'last_modified', type: 'text', nullable: true })
  lastModified!: string | null;

  /** The commit it was read at (Git). */
  @Column({ type: 'text', nullable: true })
  commit!: string | null;

  /** Where a person sees it (a Git web URL). */
  @Column({ type: 'text', nullable: true })
  link!: string | null;

  /** Why the version `fingerprint` names could not be indexed. */
  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'synced_at', type: 'timestamptz' })
  syncedAt!: Date;
}

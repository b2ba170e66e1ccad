import {
  Column,
  CreateDateColumn,
  Entity,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { DocumentStatus } from '@lumina/shared';
import { ChunkEntity } from './chunk.entity';

@Entity({ name: 'documents' })
export class DocumentEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ name: 'source_name', type: 'text', nullable: true })
  sourceName!: string | null;

  @Column({ name: 'mime_type', type: 'text', nullable: true })
  mimeType!: string | null;

  /** The collection it belongs to (exactly one). */
  @Column({ name: 'collection_id', type: 'uuid' })
  collectionId!: string;

  /** sha256 of the uploaded bytes: a document's identity within its collection (same bytes → same document). */
  @Column({ name: 'content_hash', type: 'text' })
  contentHash!: string;

  /** The source (folder, Git repository, website) it was made from; null: uploaded. */
  @Column({ name: 'source_id', type: 'uuid', nullable: true })
  sourceId!: string | null;

  /** The id the document has in its source collection (e.g. a BEIR corpus id). */
  @Column({ name: 'external_id', type: 'text', nullable: true })
  externalId!: string | null;

  @Column({ type: 'text', default: 'queued' })
  status!: DocumentStatus;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'chunk_count', type: 'integer', default: 0 })
  chunkCount!: number;

  @Column({
    name: 'byte_size',
    type: 'bigint',
    default: 0,
    transformer: { to: (v: number) => v, from: Number },
  })
  byteSize!: number;

  @Column({ type: 'jsonb', default: () => `'{}'::jsonb` })
  metadata!: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @OneToMany(() => ChunkEntity, (chunk) => chunk.document)
  chunks?: ChunkEntity[];
}

import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { DocumentEntity } from './document.entity';

/**
 * A passage of a document. `tsv` (text search vector) and `lexical_length` are computed by PostgreSQL
 * from `indexText` and are not mapped; BM25 postings are kept by triggers (see the bm25 migration).
 */
@Entity({ name: 'chunks' })
export class ChunkEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'document_id', type: 'uuid' })
  documentId!: string;

  @ManyToOne(() => DocumentEntity, (document) => document.chunks, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'document_id' })
  document?: DocumentEntity;

  /** Its document's collection, kept in the row so searches filter chunks without a join. */
  @Column({ name: 'collection_id', type: 'uuid' })
  collectionId!: string;

  @Column({ type: 'integer' })
  ordinal!: number;

  /** Exactly the source text between spanStart and spanEnd. */
  @Column({ type: 'text' })
  text!: string;

  /** What is embedded and lexically indexed: title › heading path, then the text. */
  @Column({ name: 'index_text', type: 'text' })
  indexText!: string;

  @Column({ name: 'heading_path', type: 'text', array: true, default: () => `'{}'` })
  headingPath!: string[];

  @Column({ type: 'text', nullable: true })
  anchor!: string | null;

  @Column({ name: 'span_start', type: 'integer' })
  spanStart!: number;

  @Column({ name: 'span_end', type: 'integer' })
  spanEnd!: number;

  /** First and last page (1-based) of a paged source the chunk runs over; null for unpaged sources. */
  @Column({ name: 'page_start', type: 'integer', nullable: true })
  pageStart!: number | null;

  @Column({ name: 'page_end', type: 'integer', nullable: true })
  pageEnd!: number | null;

  @Column({ type: 'vector', nullable: true, select: false })
  embedding?: string | null;

  @Column({ name: 'embedding_model', type: 'text', nullable: true })
  embeddingModel!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

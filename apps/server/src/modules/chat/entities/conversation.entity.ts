import {
  Column,
  CreateDateColumn,
  Entity,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { MessageEntity } from './message.entity';

/** A chat: a titled series of questions and answers. */
@Entity({ name: 'conversations' })
export class ConversationEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** The first question, shortened. */
  @Column({ type: 'text' })
  title!: string;

  /**
   * The API key that owns the conversation (no foreign key: the row outlives a revoked key). Only that key
   * sees it. Null only for rows from before keys existed, which the bootstrap admin key claims at start.
   */
  @Column({ name: 'owner_key_id', type: 'uuid', nullable: true })
  ownerKeyId!: string | null;

  /** The collections its questions search (a follow-up may name others, which it then keeps). */
  @Column({ name: 'collection_ids', type: 'uuid', array: true, default: () => `'{}'` })
  collectionIds!: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @OneToMany(() => MessageEntity, (message) => message.conversation)
  messages?: MessageEntity[];
}

import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ApiKeyRole } from '@lumina/shared';

/** An API key: only its SHA-256 is stored; the key itself is shown once, when it is created. */
@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  role!: ApiKeyRole;

  /** sha256(key), hex. */
  @Column({ name: 'key_hash', type: 'text' })
  keyHash!: string;

  /** The key's first characters after `lum_`, for display. */
  @Column({ name: 'key_prefix', type: 'text' })
  keyPrefix!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}

import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { ApiKeyRole, CollectionAccessLevel, CollectionGrant } from '@lumina/shared';
import { EntityManager, IsNull } from 'typeorm';
import { ApiKeyEntity } from '../entities/api-key.entity';

/** A key to store: its secret only as hash and display prefix. */
export interface NewApiKey {
  name: string;
  role: ApiKeyRole;
  keyHash: string;
  keyPrefix: string;
}

/** The API keys table, and the bootstrap's claim of conversations from before keys existed. */
@Injectable()
export class ApiKeyRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  private get keys() {
    return this.manager.getRepository(ApiKeyEntity);
  }

  /** Runs `work` in one transaction, with a repository bound to it. */
  transaction<T>(work: (keys: ApiKeyRepository) => Promise<T>): Promise<T> {
    return this.manager.transaction((manager) => work(new ApiKeyRepository(manager)));
  }

  /** The key's grants, by collection id. */
  async grantsOf(keyId: string): Promise<CollectionGrant[]> {
    return (await this.grantsOfKeys([keyId])).get(keyId) ?? [];
  }

  /** The grants of each of these keys. */
  async grantsOfKeys(keyIds: string[]): Promise<Map<string, CollectionGrant[]>> {
    const grants = new Map<string, CollectionGrant[]>();
    if (keyIds.length === 0) return grants;
    const rows: { keyId: string; collectionId: string; access: CollectionAccessLevel }[] =
      await this.manager.query(
        `SELECT key_id AS "keyId", collection_id AS "collectionId", access FROM api_key_grants
       WHERE key_id = ANY($1::uuid[]) ORDER BY created_at, collection_id`,
        [keyIds],
      );
    for (const row of rows) {
      const list = grants.get(row.keyId) ?? [];
      list.push({ collectionId: row.collectionId, access: row.access });
      grants.set(row.keyId, list);
    }
    return grants;
  }

  /** Of these collection ids, those no collection has. */
  async missingCollections(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows: { id: string }[] = await this.manager.query(
      `SELECT t.id FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, n)
       WHERE NOT EXISTS (SELECT 1 FROM collections c WHERE c.id = t.id) ORDER BY t.n`,
      [ids],
    );
    return rows.map((row) => row.id);
  }

  /** The key's grants become exactly these. */
  async replaceGrants(keyId: string, grants: CollectionGrant[]): Promise<void> {
    await this.manager.query(`DELETE FROM api_key_grants WHERE key_id = $1`, [keyId]);
    if (grants.length === 0) return;
    await this.manager.query(
      `INSERT INTO api_key_grants (key_id, collection_id, access)
       SELECT $1, t.collection_id, t.access FROM unnest($2::uuid[], $3::text[]) AS t(collection_id, access)`,
      [keyId, grants.map((grant) => grant.collectionId), grants.map((grant) => grant.access)],
    );
  }

  /** Gives the conversations without an owner to the key; returns how many there were. */
  async claimUnownedConversations(keyId: string): Promise<number> {
    const claimed: unknown = await this.manager.query(
      `UPDATE conversations SET owner_key_id = $1 WHERE owner_key_id IS NULL`,
      [keyId],
    );
    return Array.isArray(claimed) ? Number(claimed[1] ?? 0) : 0;
  }

  findActiveByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ keyHash, revokedAt: IsNull() });
  }

  /** The key with this hash; throws when there is none. */
  getByHash(keyHash: string): Promise<ApiKeyEntity> {
    return this.keys.findOneByOrFail({ keyHash });
  }

  findById(id: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ id });
  }

  /** The oldest active admin key, or null. */
  oldestActiveAdmin(): Promise<ApiKeyEntity | null> {
    return this.keys.findOne({
      where: { role: 'admin', revokedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** The ids of the active admin keys, locked until the transaction ends (call inside `transaction`). */
  async lockActiveAdminIds(): Promise<string[]> {
    const rows: { id: string }[] = await this.manager.query(
      `SELECT id FROM api_keys WHERE role = 'admin' AND revoked_at IS NULL ORDER BY id FOR UPDATE`,
    );
    return rows.map((row) => row.id);
  }

  /** Newest first, and how many there are. */
  page(offset: number, limit: number): Promise<[ApiKeyEntity[], number]> {
    return this.keys.findAndCount({ order: { createdAt: 'DESC', id: 'ASC' }, skip: offset, take: limit });
  }

  insert(key: NewApiKey): Promise<ApiKeyEntity> {
    return this.keys.save(this.keys.create(key));
  }

  /** An admin key with this name and hash, unless a key with the hash exists already. */
  async insertAdminIfAbsent(name: string, keyHash: string, keyPrefix: string): Promise<void> {
    await this.manager.query(
      `INSERT INTO api_keys (name, role, key_hash, key_prefix) VALUES ($1, 'admin', $2, $3)
       ON CONFLICT (key_hash) DO NOTHING`,
      [name, keyHash, keyPrefix],
    );
  }

  /** Revokes the active keys of this name except the one with `keepHash`. */
  async revokeOthersNamed(name: string, keepHash: string): Promise<void> {
    await this.manager.query(
      `UPDATE api_keys SET revoked_at = now() WHERE name = $1 AND key_hash <> $2 AND revoked_at IS NULL`,
      [name, keepHash],
    );
  }

  async save(key: ApiKeyEntity): Promise<ApiKeyEntity> {
    return this.manager.save(ApiKeyEntity, key);
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.keys.update({ id }, { lastUsedAt: at });
  }
}

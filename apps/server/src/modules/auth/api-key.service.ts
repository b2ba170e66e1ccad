import { Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap } from '@nestjs/common';
import type {
  ApiKeyRole,
  ApiKeySummary,
  AuthMode,
  CollectionGrant,
  CreatedApiKey,
  Page,
} from '@lumina/shared';
import { InjectConfig } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import { generateApiKey, hashApiKey, keyPrefix, MAX_PRESENTED_KEY_CHARS } from './api-key';
import type { ApiKeyEntity } from './entities/api-key.entity';
import type { Principal } from './principal';
import { ApiKeyRepository } from './repositories/api-key.repository';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';

/** Name of the key row that mirrors ADMIN_API_KEY. */
export const ENV_KEY_NAME = 'bootstrap (ADMIN_API_KEY)';
/** Name of the admin key generated on the first start without ADMIN_API_KEY. */
export const GENERATED_KEY_NAME = 'bootstrap (generated)';
/** last_used_at is written at most this often per key. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * API keys in the database, and the boot-time bootstrap: with ADMIN_API_KEY, its row exists (a changed
 * value revokes the previous one); without it, an admin key is generated (and printed once) when no
 * active admin key exists, and keyless direct-loopback requests act as the oldest active admin key.
 * Conversations from before keys existed (owner_key_id null) go to that bootstrap admin key.
 */
@Injectable()
export class ApiKeyService implements OnApplicationBootstrap {
  private readonly logger = new Logger(ApiKeyService.name);
  private readonly envKeyHash: string | null;
  private localAdmin: Principal | null = null;
  private readonly touchedAt = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeyRepository,
    @InjectConfig() private readonly env: Env,
  ) {
    this.envKeyHash = env.ADMIN_API_KEY ? hashApiKey(env.ADMIN_API_KEY) : null;
  }

  get mode(): AuthMode {
    return this.envKeyHash ? 'keys' : 'local';
  }

  /** In local mode, who keyless direct-loopback requests act as (null in keys mode). */
  get localPrincipal(): Principal | null {
    return this.localAdmin;
  }

  async onApplicationBootstrap(): Promise<void> {
    const admin = this.env.ADMIN_API_KEY
      ? await this.ensureEnvKey(this.env.ADMIN_API_KEY)
      : await this.ensureGeneratedKey();
    const count = await this.keys.claimUnownedConversations(admin.id);
    if (count > 0)
      this.logger.log(`${count} conversation(s) from before API keys now belong to "${admin.name}"`);
    if (this.mode === 'local') {
      this.localAdmin = { keyId: admin.id, name: admin.name, role: 'admin', via: 'loopback', grants: [] };
    }
  }

  /** The active key with this secret, or null (unknown, revoked, or absurdly long). */
  async authenticate(presented: string): Promise<Principal | null> {
    if (presented.length > MAX_PRESENTED_KEY_CHARS) return null;
    const row = await this.keys.findActiveByHash(hashApiKey(presented));
    if (!row) return null;
    await this.touch(row.id);
    const grants = row.role === 'user' ? await this.keys.grantsOf(row.id) : [];
    return { keyId: row.id, name: row.name, role: row.role, via: 'key', grants };
  }

  async create(name: string, role: ApiKeyRole, grants: CollectionGrant[] = []): Promise<CreatedApiKey> {
    if (role === 'admin' && grants.length > 0) throw new InvalidRequestError(ADMIN_GRANTS_MESSAGE);
    const generated = generateApiKey();
    const row = await this.keys.transaction(async (keys) => {
      const inserted = await keys.insert({
        name: name.trim(),
        role,
        keyHash: generated.hash,
        keyPrefix: generated.prefix,
      });
      await this.replaceGrants(keys, inserted.id, grants);
      return inserted;
    });
    return {
      id: row.id,
      name: row.name,
      role: row.role,
      grants,
      prefix: row.keyPrefix,
      createdAt: row.createdAt.toISOString(),
      key: generated.key,
    };
  }

  /** Replace a user key's grants (404 unknown key or collection; 409 for an admin or revoked key). */
  async setGrants(id: string, grants: CollectionGrant[]): Promise<ApiKeySummary> {
    return this.keys.transaction(async (keys) => {
      const row = await keys.findById(id);
      if (!row) throw new NotFoundError(`API key ${id} does not exist`);
      if (row.role === 'admin') throw new ConflictError(ADMIN_GRANTS_MESSAGE);
      if (row.revokedAt) throw new ConflictError(`API key ${id} is revoked: its grants no longer matter.`);
      await this.replaceGrants(keys, id, grants);
      return toSummary(row, grants);
    });
  }

  private async replaceGrants(
    keys: ApiKeyRepository,
    keyId: string,
    grants: CollectionGrant[],
  ): Promise<void> {
    const missing = await keys.missingCollections(grants.map((grant) => grant.collectionId));
    if (missing.length > 0) throw new NotFoundError(`No collection has the id ${missing[0]}.`);
    await keys.replaceGrants(keyId, grants);
  }

  async list(query: { page?: number; limit?: number }): Promise<Page<ApiKeySummary>> {
    const window = pageWindow(query);
    const [rows, total] = await this.keys.page(window.offset, window.limit);
    const grants = await this.keys.grantsOfKeys(rows.map((row) => row.id));
    return pageOf(
      rows.map((row) => toSummary(row, grants.get(row.id) ?? [])),
      total,
      window,
    );
  }

  /**
   * Revoke a key (idempotent). Refused (409) for the last active admin key, so the server can always
   * be administered, and for the key of ADMIN_API_KEY, which comes back at every start: change the
   * variable instead.
   */
  async revoke(id: string): Promise<ApiKeySummary> {
    return this.keys.transaction(async (keys) => {
      // Lock the active admin keys, so two revocations cannot both see "another admin remains".
      const admins = await keys.lockActiveAdminIds();
      const row = await keys.findById(id);
      if (!row) throw new NotFoundError(`API key ${id} does not exist`);
      if (row.revokedAt) return toSummary(row, await keys.grantsOf(row.id));
      if (this.envKeyHash !== null && row.keyHash === this.envKeyHash) {
        throw new ConflictError(
          'This key is ADMIN_API_KEY, which is restored at every start: change the variable to replace it.',
        );
      }
      if (row.role === 'admin' && admins.every((admin) => admin === row.id)) {
        throw new ConflictError(
          'This is the last active admin key: create another admin key before revoking this one.',
        );
      }
      row.revokedAt = new Date();
      await keys.save(row);
      this.touchedAt.delete(row.id);
      return toSummary(row, await keys.grantsOf(row.id));
    });
  }

  private async ensureEnvKey(key: string): Promise<ApiKeyEntity> {
    const hash = hashApiKey(key);
    await this.keys.insertAdminIfAbsent(ENV_KEY_NAME, hash, keyPrefix(key));
    // A changed ADMIN_API_KEY replaces the previous one.
    await this.keys.revokeOthersNamed(ENV_KEY_NAME, hash);
    const row = await this.keys.getByHash(hash);
    if (row.revokedAt !== null || row.role !== 'admin') {
      throw new Error(
        `ADMIN_API_KEY matches an API key that is ${row.revokedAt ? 'revoked' : `a ${row.role} key`}: choose another value.`,
      );
    }
    return row;
  }

  private async ensureGeneratedKey(): Promise<ApiKeyEntity> {
    const existing = await this.keys.oldestActiveAdmin();
    if (existing) return existing;
    const generated = generateApiKey();
    const row = await this.keys.insert({
      name: GENERATED_KEY_NAME,
      role: 'admin',
      keyHash: generated.hash,
      keyPrefix: generated.prefix,
    });
    this.announce(generated.key);
    return row;
  }

  /**
   * The generated key goes to stdout, whatever LOG_LEVEL says: it is shown this once and never again.
   * Test runs (NODE_ENV=test) start many throwaway servers: there it goes to the log instead.
   */
  private announce(key: string): void {
    const line =
      `Lumina: ADMIN_API_KEY is not set, so an admin API key was generated. It is shown only this once ` +
      `(only its hash is stored): ${key}`;
    if (this.env.NODE_ENV === 'test') this.logger.warn(line);
    else process.stdout.write(`${line}\n`);
  }

  private async touch(id: string): Promise<void> {
    const now = Date.now();
    if (now - (this.touchedAt.get(id) ?? 0) < TOUCH_INTERVAL_MS) return;
    this.touchedAt.set(id, now);
    await this.keys.touch(id, new Date(now));
  }
}

const ADMIN_GRANTS_MESSAGE = 'An admin key reaches every collection: grants are for user keys (role "user").';

function toSummary(row: ApiKeyEntity, grants: readonly CollectionGrant[]): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    grants: [...grants],
    prefix: row.keyPrefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
    revokedAt: row.revokedAt ? row.revokedAt.toISOString() : null,
  };
}

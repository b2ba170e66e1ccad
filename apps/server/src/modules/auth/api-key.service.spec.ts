import { randomUUID } from 'node:crypto';
import type { Env } from '../../config/env.schema';
import { validateEnv } from '../../config/env.schema';
import { hashApiKey } from './api-key';
import { ApiKeyService, ENV_KEY_NAME, GENERATED_KEY_NAME } from './api-key.service';
import type { ApiKeyEntity } from './entities/api-key.entity';
import type { ApiKeyRepository, NewApiKey } from './repositories/api-key.repository';
import type { CollectionGrant } from '@lumina/shared';

/** ApiKeyRepository in memory: keys in creation order, conversations reduced to their owners. */
class InMemoryApiKeyRepository implements Pick<ApiKeyRepository, keyof ApiKeyRepository> {
  readonly keys: ApiKeyEntity[] = [];
  readonly conversationOwners: (string | null)[] = [];
  readonly grants = new Map<string, CollectionGrant[]>();
  /** The collections that exist. */
  readonly collections = new Set<string>(['c-ops', 'c-support']);
  private clock = Date.parse('2025-01-01T00:00:00Z');

  async grantsOf(keyId: string): Promise<CollectionGrant[]> {
    return this.grants.get(keyId) ?? [];
  }

  async grantsOfKeys(keyIds: string[]): Promise<Map<string, CollectionGrant[]>> {
    return new Map(keyIds.map((id) => [id, this.grants.get(id) ?? []]));
  }

  async missingCollections(ids: string[]): Promise<string[]> {
    return ids.filter((id) => !this.collections.has(id));
  }

  async replaceGrants(keyId: string, grants: CollectionGrant[]): Promise<void> {
    this.grants.set(keyId, [...grants]);
  }

  async transaction<T>(work: (keys: ApiKeyRepository) => Promise<T>): Promise<T> {
    return work(this as unknown as ApiKeyRepository);
  }

  async claimUnownedConversations(keyId: string): Promise<number> {
    let claimed = 0;
    this.conversationOwners.forEach((owner, i) => {
      if (owner === null) {
        this.conversationOwners[i] = keyId;
        claimed++;
      }
    });
    return claimed;
  }

  async findActiveByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.keys.find((k) => k.keyHash === keyHash && k.revokedAt === null) ?? null;
  }

  async getByHash(keyHash: string): Promise<ApiKeyEntity> {
    const key = this.keys.find((k) => k.keyHash === keyHash);
    if (!key) throw new Error(`no key with hash ${keyHash}`);
    return key;
  }

  async findById(id: string): Promise<ApiKeyEntity | null> {
    return this.keys.find((k) => k.id === id) ?? null;
  }

  async oldestActiveAdmin(): Promise<ApiKeyEntity | null> {
    return this.keys.find((k) => k.role === 'admin' && k.revokedAt === null) ?? null;
  }

  async lockActiveAdminIds(): Promise<string[]> {
    return this.keys.filter((k) => k.role === 'admin' && k.revokedAt === null).map((k) => k.id);
  }

  async page(offset: number, limit: number): Promise<[ApiKeyEntity[], number]> {
    return [[...this.keys].reverse().slice(offset, offset + limit), this.keys.length];
  }

  async insert(key: NewApiKey): Promise<ApiKeyEntity> {
    this.clock += 1000;
    const row = {
      id: randomUUID(),
      ...key,
      createdAt: new Date(this.clock),
      lastUsedAt: null,
      revokedAt: null,
    };
    this.keys.push(row);
    return row;
  }

  async insertAdminIfAbsent(name: string, keyHash: string, keyPrefix: string): Promise<void> {
    if (!this.keys.some((k) => k.keyHash === keyHash))
      await this.insert({ name, role: 'admin', keyHash, keyPrefix });
  }

  async revokeOthersNamed(name: string, keepHash: string): Promise<void> {
    for (const key of this.keys) {
      if (key.name === name && key.keyHash !== keepHash && key.revokedAt === null) key.revokedAt = new Date();
    }
  }

  async save(key: ApiKeyEntity): Promise<ApiKeyEntity> {
    return key;
  }

  async touch(id: string, at: Date): Promise<void> {
    const key = this.keys.find((k) => k.id === id);
    if (key) key.lastUsedAt = at;
  }
}

function setUp(env: Partial<Record<keyof Env, string>> = {}, repository = new InMemoryApiKeyRepository()) {
  const service = new ApiKeyService(
    repository as unknown as ApiKeyRepository,
    validateEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }),
  );
  // The generated key is announced in the log; keep the test output quiet.
  (service as unknown as { logger: { warn: () => void; log: () => void } }).logger = {
    warn: () => undefined,
    log: () => undefined,
  };
  return { repository, service };
}

const ADMIN_API_KEY = 'an-operator-chosen-secret';

describe('ApiKeyService', () => {
  it('without ADMIN_API_KEY, generates one admin key, acts as it on loopback and gives it the old conversations', async () => {
    const { repository, service } = setUp();
    repository.conversationOwners.push(null, 'someone', null);
    await service.onApplicationBootstrap();
    expect(service.mode).toBe('local');
    expect(repository.keys).toEqual([expect.objectContaining({ name: GENERATED_KEY_NAME, role: 'admin' })]);
    const admin = repository.keys[0];
    expect(service.localPrincipal).toEqual({
      keyId: admin.id,
      name: admin.name,
      role: 'admin',
      via: 'loopback',
      grants: [],
    });
    expect(repository.conversationOwners).toEqual([admin.id, 'someone', admin.id]);
    // A second start keeps the key it made.
    await setUp({}, repository).service.onApplicationBootstrap();
    expect(repository.keys).toHaveLength(1);
  });

  it('with ADMIN_API_KEY, stores its hash and revokes the one it replaces', async () => {
    const first = setUp({ ADMIN_API_KEY });
    await first.service.onApplicationBootstrap();
    expect(first.service.mode).toBe('keys');
    expect(first.service.localPrincipal).toBeNull();
    await setUp(
      { ADMIN_API_KEY: 'another-operator-secret' },
      first.repository,
    ).service.onApplicationBootstrap();
    expect(
      first.repository.keys.map((k) => ({ name: k.name, hash: k.keyHash, revoked: k.revokedAt !== null })),
    ).toEqual([
      { name: ENV_KEY_NAME, hash: hashApiKey(ADMIN_API_KEY), revoked: true },
      { name: ENV_KEY_NAME, hash: hashApiKey('another-operator-secret'), revoked: false },
    ]);
  });

  it('authenticates active keys only, and refuses absurdly long ones without a lookup', async () => {
    const { service } = setUp();
    const created = await service.create('  Alice ', 'user');
    expect(created.name).toBe('Alice');
    expect(await service.authenticate(created.key)).toEqual({
      keyId: created.id,
      name: 'Alice',
      role: 'user',
      via: 'key',
      grants: [],
    });
    expect(await service.authenticate(`${created.key}x`)).toBeNull();
    expect(await service.authenticate('x'.repeat(513))).toBeNull();
    await service.revoke(created.id);
    expect(await service.authenticate(created.key)).toBeNull();
  });

  it('keeps a user key’s grants: given at creation, replaced later, carried by its principal', async () => {
    const { service } = setUp();
    const created = await service.create('Support', 'user', [{ collectionId: 'c-support', access: 'write' }]);
    expect(created.grants).toEqual([{ collectionId: 'c-support', access: 'write' }]);
    expect((await service.authenticate(created.key))?.grants).toEqual([
      { collectionId: 'c-support', access: 'write' },
    ]);
    const changed = await service.setGrants(created.id, [{ collectionId: 'c-ops', access: 'read' }]);
    expect(changed.grants).toEqual([{ collectionId: 'c-ops', access: 'read' }]);
    expect((await service.authenticate(created.key))?.grants).toEqual([
      { collectionId: 'c-ops', access: 'read' },
    ]);
    expect((await service.list({})).items.find((key) => key.id === created.id)?.grants).toEqual(
      changed.grants,
    );

    await expect(
      service.setGrants(created.id, [{ collectionId: 'c-gone', access: 'read' }]),
    ).rejects.toMatchObject({
      status: 404,
      message: 'No collection has the id c-gone.',
    });
    await expect(
      service.create('Root', 'admin', [{ collectionId: 'c-ops', access: 'read' }]),
    ).rejects.toMatchObject({ status: 400 });
    const admin = await service.create('Root', 'admin');
    await expect(service.setGrants(admin.id, [])).rejects.toMatchObject({ status: 409 });
    await expect(service.setGrants(randomUUID(), [])).rejects.toMatchObject({ status: 404 });
  });

  it('refuses to revoke the last admin key and the key of ADMIN_API_KEY (409), and an unknown one (404)', async () => {
    const { repository, service } = setUp({ ADMIN_API_KEY });
    await service.onApplicationBootstrap();
    const envKey = repository.keys[0];
    await expect(service.revoke(envKey.id)).rejects.toMatchObject({
      name: 'ConflictError',
      message:
        'This key is ADMIN_API_KEY, which is restored at every start: change the variable to replace it.',
    });
    await expect(service.revoke('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      name: 'NotFoundError',
      message: 'API key 00000000-0000-4000-8000-000000000000 does not exist',
    });

    const local = setUp();
    await local.service.onApplicationBootstrap();
    const only = local.repository.keys[0];
    await expect(local.service.revoke(only.id)).rejects.toMatchObject({
      name: 'ConflictError',
      message: 'This is the last active admin key: create another admin key before revoking this one.',
    });
    const second = await local.service.create('Second admin', 'admin');
    expect((await local.service.revoke(only.id)).revokedAt).not.toBeNull();
    // Revoking again answers the key as it is.
    expect((await local.service.revoke(only.id)).revokedAt).not.toBeNull();
    await expect(local.service.revoke(second.id)).rejects.toMatchObject({ name: 'ConflictError' });
  });

  it('lists keys newest first without their secrets', async () => {
    const { service } = setUp();
    await service.create('a', 'user');
    await service.create('b', 'admin');
    const page = await service.list({ page: 1, limit: 10 });
    expect(page.total).toBe(2);
    expect(page.items.map((k) => k.name)).toEqual(['b', 'a']);
    expect(JSON.stringify(page)).not.toMatch(/keyHash|"key"/);
  });
});

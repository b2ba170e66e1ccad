import { lookup } from 'node:dns/promises';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isIP } from 'node:net';
import { Injectable } from '@nestjs/common';
import type {
  ListSourcesQuery,
  Page,
  PageQuery,
  Source,
  SourceConfig,
  SourceDeletion,
  SourceInput,
  SourcePatch,
  SourceSyncRequested,
  SyncRun,
} from '@lumina/shared';
import { InjectConfig } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import { ALL_COLLECTIONS } from '../auth/principal';
import { CollectionScope } from '../collections/collection-scope.service';
import { SourceRepository } from './repositories/source.repository';
import type { SourceRow, SyncRunRow } from './repositories/source.repository';
import { SourceQueue } from './source-queue.service';
import { isRefusedAddress } from './sync/safe-http';
import { insideRoots } from './sync/source-paths';

/**
 * Sources of collections: create, list, change, delete (with or without their documents), sync now, and
 * the reports of their syncs. Admin keys only (the controller says so); a source's collection must exist
 * and not be being deleted.
 */
@Injectable()
export class SourceService {
  constructor(
    private readonly sources: SourceRepository,
    private readonly queue: SourceQueue,
    private readonly collections: CollectionScope,
    @InjectConfig() private readonly env: Env,
  ) {}

  async create(input: SourceInput): Promise<Source> {
    const collectionId = await this.collections.writable(ALL_COLLECTIONS, input.collectionId, 'sources');
    await this.checkConfig(input.config);
    const id = await this.sources.create(
      collectionId,
      input.name,
      input.config,
      input.scheduleMinutes ?? null,
    );
    return this.get(id);
  }

  async list(query: ListSourcesQuery): Promise<Page<Source>> {
    const window = pageWindow(query);
    const collectionId = query.collectionId ?? null;
    const total = await this.sources.count(collectionId, null);
    const rows = await this.sources.page(collectionId, null, window.offset, window.limit);
    const runs = await this.sources.latestRuns(rows.map((row) => row.id));
    return pageOf(
      rows.map((row) => toSource(row, runs.get(row.id) ?? null)),
      total,
      window,
    );
  }

  async get(id: string): Promise<Source> {
    const row = await this.find(id);
    const runs = await this.sources.latestRuns([id]);
    return toSource(row, runs.get(id) ?? null);
  }

  async update(id: string, patch: SourcePatch): Promise<Source> {
    const row = await this.find(id);
    if (patch.config) {
      if (patch.config.kind !== row.kind) {
        throw new InvalidRequestError(
          `config.kind must stay ${row.kind}: a source does not change its kind (create another source).`,
        );
      }
      await this.checkConfig(patch.config);
    }
    await this.sources.update(id, {
      name: patch.name,
      schedule: patch.scheduleMinutes !== undefined ? { minutes: patch.scheduleMinutes } : undefined,
      config: patch.config,
    });
    return this.get(id);
  }

  /** 409 while a sync runs: it would write documents of a source that is going away. */
  async remove(id: string, keepDocuments: boolean): Promise<SourceDeletion> {
    const row = await this.find(id);
    if (row.running) {
      throw new ConflictError(`Source ${id} is being synced; delete it once the sync has ended.`);
    }
    const { deleted, kept } = await this.sources.delete(id, keepDocuments);
    // A Git source's clone goes too (where this process shares SOURCE_CACHE_DIR with the workers).
    if (row.kind === 'git') {
      await rm(join(this.env.SOURCE_CACHE_DIR, `${id}.git`), { recursive: true, force: true });
    }
    return { id, deleted: true, documentsDeleted: deleted, documentsKept: kept };
  }

  async requestSync(id: string, trigger: 'manual' | 'schedule' = 'manual'): Promise<SourceSyncRequested> {
    const row = await this.find(id);
    await this.collections.writable(ALL_COLLECTIONS, row.collection_id, 'sources');
    // Marked before the job exists, so a worker that starts it at once finds the mark to take.
    await this.sources.markRequested(id);
    let queued: { jobId: string; alreadyQueued: boolean };
    try {
      queued = await this.queue.enqueueSync(id, trigger);
    } catch (error) {
      await this.sources.restoreRequested(id, row.sync_requested_at);
      throw error;
    }
    if (queued.alreadyQueued) await this.sources.restoreRequested(id, row.sync_requested_at);
    return { sourceId: id, ...queued };
  }

  async runs(id: string, query: PageQuery): Promise<Page<SyncRun>> {
    await this.find(id);
    const window = pageWindow(query);
    const total = await this.sources.countRuns(id);
    const rows = await this.sources.runs(id, window.offset, window.limit);
    return pageOf(rows.map(toRun), total, window);
  }

  private async find(id: string): Promise<SourceRow> {
    const row = await this.sources.find(id);
    if (!row) throw new NotFoundError(`No source has the id ${id}.`);
    return row;
  }

  /** 400 when the URL's host is an address a website source may not reach (checked again at every request). */
  private async checkHost(url: string): Promise<void> {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (this.env.SOURCE_ALLOWED_HOSTS.includes(host)) return;
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
    } catch {
      throw new InvalidRequestError(`The host of ${url} could not be resolved.`);
    }
    const refused = addresses.find(isRefusedAddress);
    if (refused) {
      throw new InvalidRequestError(
        `${host} resolves to ${refused}, a private, loopback or link-local address; a website source reaches it only when SOURCE_ALLOWED_HOSTS names it.`,
      );
    }
  }

  /** What the schema cannot tell: the folder (or repository folder) is there and allowed. */
  private async checkConfig(config: SourceConfig): Promise<void> {
    const roots = this.env.SOURCE_FOLDER_ROOTS;
    if (config.kind === 'folder') {
      if (roots.length === 0) {
        throw new InvalidRequestError(
          'No folder may be read: the server allows none (SOURCE_FOLDER_ROOTS is empty).',
        );
      }
      if (!(await insideRoots(config.path, roots))) {
        throw new InvalidRequestError(
          `config.path ${config.path} does not exist or is not inside the folders the server allows (SOURCE_FOLDER_ROOTS).`,
        );
      }
    } else if (config.kind === 'website') {
      await this.checkHost(config.startUrl);
      if (config.prefix) await this.checkHost(config.prefix);
    } else if (!/^(https?|ssh|git):\/\//i.test(config.url) && !/^[\w.-]+@[\w.-]+:/.test(config.url)) {
      if (!(await insideRoots(config.url, roots))) {
        throw new InvalidRequestError(
          `config.url must be an https or ssh URL, or a repository folder inside the folders the server allows (SOURCE_FOLDER_ROOTS); ${config.url} is neither.`,
        );
      }
    }
  }
}

function toSource(row: SourceRow, run: SyncRunRow | null): Source {
  return {
    id: row.id,
    collectionId: row.collection_id,
    name: row.name,
    kind: row.kind,
    config: row.config,
    scheduleMinutes: row.schedule_minutes,
    nextSyncAt: row.next_sync_at ? new Date(row.next_sync_at).toISOString() : null,
    state: row.running ? 'syncing' : row.sync_requested_at ? 'queued' : 'idle',
    itemCount: row.item_count,
    cursor: row.cursor,
    lastRun: run ? toRun(run) : null,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

function toRun(row: SyncRunRow): SyncRun {
  return {
    id: row.id,
    sourceId: row.source_id,
    status: row.status,
    trigger: row.trigger,
    startedAt: new Date(row.started_at).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
    durationMs: row.duration_ms,
    added: row.added,
    updated: row.updated,
    unchanged: row.unchanged,
    deleted: row.deleted,
    failed: row.failed,
    failures: row.failures,
    error: row.error,
    cursorBefore: row.cursor_before,
    cursorAfter: row.cursor_after,
  };
}

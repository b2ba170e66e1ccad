import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { SourceConfig, SourceKind, SyncFailure, SyncRunStatus } from '@lumina/shared';
import { EntityManager } from 'typeorm';
import {
  CLAIM_ITEM_SQL,
  DELETE_ITEM_SQL,
  DOCUMENT_OF_ITEM_SQL,
  INSERT_SOURCE_DOCUMENT_SQL,
  ITEM_FAILED_SQL,
  ITEM_PENDING_SQL,
  ITEM_INDEXED_SQL,
  ITEM_SEEN_SQL,
  RENAME_ITEM_SQL,
  SOURCE_ITEMS_SQL,
} from './source-items.sql';
import {
  FINISH_RUN_SQL,
  INTERRUPT_RUNS_SQL,
  LATEST_RUNS_SQL,
  RUN_PAGE_SQL,
  START_RUN_SQL,
} from './source-runs.sql';
import {
  COUNT_SOURCES_SQL,
  DETACH_DOCUMENTS_SQL,
  DROP_REPEATED_DOCUMENTS_SQL,
  DUE_SOURCES_SQL,
  FIND_SOURCE_SQL,
  INSERT_SOURCE_SQL,
  SOURCE_PAGE_SQL,
  SOURCE_SYNCED_SQL,
  UPDATE_SOURCE_SQL,
} from './sources.sql';

export interface SourceRow {
  id: string;
  collection_id: string;
  name: string;
  kind: SourceKind;
  config: SourceConfig;
  schedule_minutes: number | null;
  next_sync_at: Date | null;
  sync_requested_at: Date | null;
  cursor: string | null;
  created_at: Date;
  updated_at: Date;
  item_count: number;
  running: boolean;
  /** Its collection is being deleted. */
  collection_deleting: boolean;
}

export interface SyncRunRow {
  id: string;
  source_id: string;
  status: SyncRunStatus;
  trigger: 'manual' | 'schedule';
  started_at: Date;
  finished_at: Date | null;
  duration_ms: number | null;
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  failed: number;
  failures: SyncFailure[];
  error: string | null;
  cursor_before: string | null;
  cursor_after: string | null;
}

/** What a sync knows of an item from its last sync. */
export interface SourceItemRow {
  id: string;
  key: string;
  fingerprint: string | null;
  /** Null until the item was indexed once (or while a new version is being indexed for the first time). */
  content_hash: string | null;
  document_id: string | null;
  /** Why the version `fingerprint` names could not be indexed; null when it was (or is pending). */
  error: string | null;
  /** A web page's validators and the links it held, for conditional requests and crawling past a 304. */
  etag: string | null;
  last_modified: string | null;
  links: string[] | null;
  commit: string | null;
  link: string | null;
}

/** A sync's counts and failures. */
export interface SyncReport {
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  failed: number;
  failures: SyncFailure[];
}

/** What a sync remembers of an item's version. */
export interface ItemVersion {
  fingerprint: string;
  commit: string | null;
  link: string | null;
  etag?: string | null;
  lastModified?: string | null;
  links?: string[] | null;
}

/** The document made of an item, as it is stored once its latest bytes are indexed. */
export interface ItemDocument {
  contentHash: string;
  byteSize: number;
  metadata: Record<string, unknown>;
  fileName: string;
  title: string;
}

/** The tables of sources: the sources, their items and their sync runs. */
@Injectable()
export class SourceRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  async create(
    collectionId: string,
    name: string,
    config: SourceConfig,
    scheduleMinutes: number | null,
  ): Promise<string> {
    const [{ id }]: { id: string }[] = await this.manager.query(INSERT_SOURCE_SQL, [
      collectionId,
      name,
      config.kind,
      JSON.stringify(config),
      scheduleMinutes,
    ]);
    return id;
  }

  async find(id: string): Promise<SourceRow | null> {
    const rows: SourceRow[] = await this.manager.query(FIND_SOURCE_SQL, [id]);
    return rows[0] ?? null;
  }

  async count(collectionId: string | null, readable: string[] | null): Promise<number> {
    const [{ total }]: { total: number }[] = await this.manager.query(COUNT_SOURCES_SQL, [
      collectionId,
      readable,
    ]);
    return total;
  }

  page(
    collectionId: string | null,
    readable: string[] | null,
    offset: number,
    limit: number,
  ): Promise<SourceRow[]> {
    return this.manager.query(SOURCE_PAGE_SQL, [collectionId, readable, limit, offset]);
  }

  async update(
    id: string,
    patch: { name?: string; schedule?: { minutes: number | null }; config?: SourceConfig },
  ): Promise<void> {
    await this.manager.query(UPDATE_SOURCE_SQL, [
      id,
      patch.name ?? null,
      patch.schedule !== undefined,
      patch.schedule?.minutes ?? null,
      patch.config ? JSON.stringify(patch.config) : null,
    ]);
  }

  /** A sync was asked for (cleared when it starts). */
  async markRequested(id: string): Promise<void> {
    await this.manager.query(`UPDATE sources SET sync_requested_at = now() WHERE id = $1`, [id]);
  }

  /** Puts back the mark a request found (the sync it asked for was already waiting or running). */
  async restoreRequested(id: string, requestedAt: Date | null): Promise<void> {
    await this.manager.query(`UPDATE sources SET sync_requested_at = $2 WHERE id = $1`, [id, requestedAt]);
  }

  /** The ids of sources whose scheduled sync is due. */
  async due(limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.manager.query(DUE_SOURCES_SQL, [limit]);
    return rows.map((row) => row.id);
  }

  /** Pushes a due source's next scheduled sync a period on (it was queued). */
  async scheduled(id: string): Promise<void> {
    await this.manager.query(
      `UPDATE sources SET next_sync_at = now() + make_interval(mins => schedule_minutes)
       WHERE id = $1 AND schedule_minutes IS NOT NULL`,
      [id],
    );
  }

  /**
   * Deletes the source with its items and runs; its documents go with it, or stay as uploaded documents
   * (`keepDocuments`, after those that would repeat another's bytes are removed). One transaction.
   */
  async delete(id: string, keepDocuments: boolean): Promise<{ deleted: number; kept: number }> {
    return this.manager.transaction(async (manager) => {
      let deleted = 0;
      let kept = 0;
      if (keepDocuments) {
        const [, dropped]: [unknown, number] = await manager.query(DROP_REPEATED_DOCUMENTS_SQL, [id]);
        const [, detached]: [unknown, number] = await manager.query(DETACH_DOCUMENTS_SQL, [id]);
        deleted = dropped;
        kept = detached;
      } else {
        const [, dropped]: [unknown, number] = await manager.query(
          `DELETE FROM documents WHERE source_id = $1`,
          [id],
        );
        deleted = dropped;
      }
      await manager.query(`DELETE FROM sources WHERE id = $1`, [id]);
      return { deleted, kept };
    });
  }

  /** The latest run of each source. */
  async latestRuns(sourceIds: string[]): Promise<Map<string, SyncRunRow>> {
    if (sourceIds.length === 0) return new Map();
    const rows: SyncRunRow[] = await this.manager.query(LATEST_RUNS_SQL, [sourceIds]);
    return new Map(rows.map((row) => [row.source_id, row]));
  }

  async countRuns(sourceId: string): Promise<number> {
    const [{ total }]: { total: number }[] = await this.manager.query(
      `SELECT count(*)::int AS total FROM source_sync_runs WHERE source_id = $1`,
      [sourceId],
    );
    return total;
  }

  runs(sourceId: string, offset: number, limit: number): Promise<SyncRunRow[]> {
    return this.manager.query(RUN_PAGE_SQL, [sourceId, limit, offset]);
  }

  /** A run begins; runs the source left running (a dead worker's) are marked interrupted first. */
  async startRun(sourceId: string, trigger: 'manual' | 'schedule', cursor: string | null): Promise<string> {
    return this.manager.transaction(async (manager) => {
      await manager.query(INTERRUPT_RUNS_SQL, [sourceId]);
      await manager.query(`UPDATE sources SET sync_requested_at = NULL WHERE id = $1`, [sourceId]);
      const [{ id }]: { id: string }[] = await manager.query(START_RUN_SQL, [sourceId, trigger, cursor]);
      return id;
    });
  }

  async finishRun(
    runId: string,
    status: Exclude<SyncRunStatus, 'running'>,
    report: SyncReport,
    error: string | null,
    cursorAfter: string | null,
  ): Promise<void> {
    await this.manager.query(FINISH_RUN_SQL, [
      runId,
      status,
      report.added,
      report.updated,
      report.unchanged,
      report.deleted,
      report.failed,
      JSON.stringify(report.failures.slice(0, 100)),
      error,
      cursorAfter,
    ]);
  }

  /** The source reached `cursor` (a commit, or null); its next scheduled sync is a period on. */
  async synced(sourceId: string, cursor: string | null): Promise<void> {
    await this.manager.query(SOURCE_SYNCED_SQL, [sourceId, cursor]);
  }

  async items(sourceId: string): Promise<Map<string, SourceItemRow>> {
    const rows: SourceItemRow[] = await this.manager.query(SOURCE_ITEMS_SQL, [sourceId]);
    return new Map(rows.map((row) => [row.key, row]));
  }

  /**
   * A new document for item `key`, being parsed, and the item pointing at it, in one transaction: a sync
   * killed after it finds the document through the item and makes no second one.
   */
  async newItemDocument(
    source: { id: string; collectionId: string },
    key: string,
    mimeType: string,
    document: ItemDocument,
  ): Promise<string> {
    return this.manager.transaction(async (manager) => {
      const [{ id }]: { id: string }[] = await manager.query(INSERT_SOURCE_DOCUMENT_SQL, [
        source.id,
        source.collectionId,
        document.title,
        document.fileName,
        mimeType,
        document.contentHash,
        document.byteSize,
        JSON.stringify(document.metadata),
      ]);
      await manager.query(CLAIM_ITEM_SQL, [source.id, key, id]);
      return id;
    });
  }

  /** The item's document holds its latest bytes, and the item remembers them, in one transaction. */
  async itemIndexed(
    sourceId: string,
    key: string,
    documentId: string,
    version: ItemVersion,
    document: ItemDocument,
  ): Promise<void> {
    await this.manager.transaction(async (manager) => {
      await manager.query(DOCUMENT_OF_ITEM_SQL, [
        documentId,
        document.contentHash,
        document.byteSize,
        JSON.stringify(document.metadata),
        document.fileName,
        document.title,
      ]);
      await manager.query(ITEM_INDEXED_SQL, [
        sourceId,
        key,
        version.fingerprint,
        document.contentHash,
        version.commit,
        version.link,
        version.etag ?? null,
        version.lastModified ?? null,
        version.links ? JSON.stringify(version.links) : null,
      ]);
    });
  }

  async itemSeen(sourceId: string, key: string, version: ItemVersion): Promise<void> {
    await this.manager.query(ITEM_SEEN_SQL, [
      sourceId,
      key,
      version.fingerprint,
      version.commit,
      version.link,
      version.etag ?? null,
      version.lastModified ?? null,
      version.links ? JSON.stringify(version.links) : null,
    ]);
  }

  async renameItem(sourceId: string, from: string, to: string): Promise<void> {
    await this.manager.query(RENAME_ITEM_SQL, [sourceId, from, to]);
  }

  /** The item goes, and its document with its chunks (BM25 postings follow by trigger), in one transaction. */
  async deleteItem(sourceId: string, key: string, documentId: string | null): Promise<void> {
    await this.manager.transaction(async (manager) => {
      if (documentId) {
        await manager.query(`DELETE FROM documents WHERE id = $1 AND source_id = $2`, [documentId, sourceId]);
      }
      await manager.query(DELETE_ITEM_SQL, [sourceId, key]);
    });
  }

  /** The item's version `fingerprint` cannot be indexed, because of `reason`. */
  async itemFailed(sourceId: string, key: string, fingerprint: string, reason: string): Promise<void> {
    await this.manager.query(ITEM_FAILED_SQL, [sourceId, key, fingerprint, reason]);
  }

  /** The item is read again by the next sync, whatever its fingerprint. */
  async itemPending(sourceId: string, key: string): Promise<void> {
    await this.manager.query(ITEM_PENDING_SQL, [sourceId, key]);
  }

  /** A new item's document failed: it stays, failed with the reason, until a later sync indexes it. */
  async failDocument(documentId: string, reason: string): Promise<void> {
    await this.manager.query(
      `UPDATE documents SET status = 'failed', error = $2, updated_at = now() WHERE id = $1 AND status <> 'indexed'`,
      [documentId, reason],
    );
  }
}

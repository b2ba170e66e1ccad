import { basename, extname } from 'node:path';
import { Injectable, Logger } from '@nestjs/common';
import type { SourceConfig, SyncFailure } from '@lumina/shared';
import { InjectConfig } from '../../../config/app-config';
import type { Env } from '../../../config/env.schema';
import { DocumentWorkPool } from '../../ingestion/document-work/document-work-pool';
import { IndexingService } from '../../ingestion/indexing.service';
import { UnreadableDocumentError } from '../../ingestion/errors/unreadable-document.error';
import { ByteInspector } from '../../ingestion/uploads/byte-inspector';
import { formatBytes } from '../../ingestion/uploads/format-bytes';
import type { SourceFormat } from '../../ingestion/uploads/supported-formats';
import { findUploadProblem } from '../../ingestion/uploads/upload-problem';
import { SourceRepository } from '../repositories/source.repository';
import type { ItemVersion, SourceItemRow, SourceRow, SyncReport } from '../repositories/source.repository';
import { listFolder } from './folder-reader';
import { listGit } from './git-reader';
import { listWebsite } from './website-reader';
import type { ListedItem, SourceListing } from './source-listing';
import { SourceUnavailableError } from './source-listing';
import { sourceFileFormat } from './source-paths';

/** What a sync job returns (BullMQ keeps it). */
export interface SyncOutcome {
  sourceId: string;
  runId: string | null;
  status: 'succeeded' | 'failed' | 'gone';
  report: SyncReport | null;
}

/** Where a sync reports how far it got. */
export type SyncProgress = (progress: { stage: 'listing' | 'syncing'; done: number; total: number }) => void;

/** An item that cannot be indexed as it is; the sync goes on with the others. */
class ItemProblem extends Error {}

/**
 * One sync of a source: list what it holds now, then for each item decide from what the last sync stored
 * whether it changed, without reading it when its fingerprint (size and modification time, Git blob id)
 * says so, else by the sha256 of its bytes. Unchanged items cost nothing (no parse, no embedding). A new
 * or changed item is parsed and chunked on a worker thread, and its chunks replace the old ones in one
 * transaction (IndexingService), with the vectors of unchanged passages from the embedding cache; a search
 * meanwhile sees the old version or the new one. Items that went away are deleted with their documents.
 * A failed item is reported and the sync goes on. Every step is recorded as it is done, so a sync killed
 * half-way and run again redoes only what was not recorded, and makes no duplicate.
 */
@Injectable()
export class SourceSyncService {
  private readonly logger = new Logger(SourceSyncService.name);
  constructor(
    private readonly indexing: IndexingService,
    private readonly sources: SourceRepository,
    @InjectConfig() private readonly env: Env,
    private readonly work: DocumentWorkPool,
  ) {}

  async sync(sourceId: string, trigger: 'manual' | 'schedule', progress: SyncProgress): Promise<SyncOutcome> {
    const source = await this.sources.find(sourceId);
    if (!source) return { sourceId, runId: null, status: 'gone', report: null };
    const runId = await this.sources.startRun(sourceId, trigger, source.cursor);
    const report: SyncReport = { added: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0, failures: [] };
    try {
      if (source.collection_deleting) {
        throw new SourceUnavailableError(
          `Collection ${source.collection_id} is being deleted; its sources are not synced.`,
        );
      }
      progress({ stage: 'listing', done: 0, total: 1 });
      const items = await this.sources.items(sourceId);
      const listing = await this.list(source, items);
      await this.apply(source, listing, items, report, progress);
      await this.sources.synced(sourceId, listing.cursor);
      await this.sources.finishRun(runId, 'succeeded', report, null, listing.cursor);
      this.logger.log(
        `source ${sourceId} synced: ${report.added} added, ${report.updated} updated, ${report.unchanged} unchanged, ` +
          `${report.deleted} deleted, ${report.failed} failed`,
      );
      return { sourceId, runId, status: 'succeeded', report };
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      await this.sources.finishRun(runId, 'failed', report, message, null);
      if (error instanceof SourceUnavailableError) {
        this.logger.warn(`source ${sourceId} could not be synced: ${message}`);
        return { sourceId, runId, status: 'failed', report };
      }
      throw error;
    }
  }

  private list(source: SourceRow, items: Map<string, SourceItemRow>): Promise<SourceListing> {
    const config: SourceConfig = source.config;
    if (config.kind === 'folder') {
      return listFolder(config, this.env.SOURCE_FOLDER_ROOTS, this.env.SOURCE_MAX_ITEMS);
    }
    if (config.kind === 'website') {
      return listWebsite(config, items, {
        allowedHosts: this.env.SOURCE_ALLOWED_HOSTS,
        pageTimeoutMs: this.env.SOURCE_PAGE_TIMEOUT_SECONDS * 1000,
        crawlTimeoutMs: this.env.SOURCE_CRAWL_TIMEOUT_SECONDS * 1000,
        maxBytes: this.env.UPLOAD_MAX_BYTES,
      });
    }
    // An item that waits to be indexed (failed, or cut short) is found again only in the whole tree.
    const pending = [...items.values()].some(
      (item) => item.content_hash === null || item.fingerprint === null,
    );
    return listGit(source.id, config, source.cursor, pending, {
      gitCommand: this.env.SOURCE_GIT_COMMAND,
      cacheDir: this.env.SOURCE_CACHE_DIR,
      roots: this.env.SOURCE_FOLDER_ROOTS,
      timeoutMs: this.env.SOURCE_GIT_TIMEOUT_SECONDS * 1000,
      maxItems: this.env.SOURCE_MAX_ITEMS,
    });
  }

  private async apply(
    source: SourceRow,
    listing: SourceListing,
    items: Map<string, SourceItemRow>,
    report: SyncReport,
    progress: SyncProgress,
  ): Promise<void> {
    for (const { from, to } of listing.renamed) {
      const item = items.get(from);
      if (!item || items.has(to)) continue;
      await this.sources.renameItem(source.id, from, to);
      items.delete(from);
      items.set(to, { ...item, key: to });
    }
    // A page that could not be read this time stays as it is (it is not deleted), and is reported.
    const listed = new Set([
      ...listing.items.map((item) => item.key),
      ...(listing.failures ?? []).map((failure) => failure.item),
    ]);
    for (const failure of listing.failures ?? []) {
      report.failed++;
      report.failures.push(failure);
    }
    const gone =
      listing.mode === 'full'
        ? [...items.keys()].filter((key) => !listed.has(key))
        : listing.deleted.filter((key) => items.has(key) && !listed.has(key));
    const total = listing.items.length + gone.length;
    let done = 0;
    progress({ stage: 'syncing', done, total });
    // Items are indexed INGESTION_CONCURRENCY at a time: they mostly wait for the embedder, and their
    // embedding calls are shared. Each item's own steps stay in order.
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < listing.items.length) {
        const entry = listing.items[next++]!;
        const outcome = await this.syncItem(source, entry, items.get(entry.key) ?? null);
        if (typeof outcome === 'string') report[outcome]++;
        else {
          report.failed++;
          report.failures.push(outcome);
        }
        progress({ stage: 'syncing', done: ++done, total });
      }
    };
    await Promise.all(Array.from({ length: this.env.INGESTION_CONCURRENCY }, lane));
    for (const key of gone) {
      await this.sources.deleteItem(source.id, key, items.get(key)!.document_id);
      report.deleted++;
      progress({ stage: 'syncing', done: ++done, total });
    }
    if (listing.mode === 'changes') {
      // Everything the diff did not name is as the last sync left it.
      report.unchanged += [...items.keys()].filter((key) => !listed.has(key) && !gone.includes(key)).length;
    }
  }

  /** One item: unchanged, added or updated, or why it failed. */
  private async syncItem(
    source: SourceRow,
    entry: ListedItem,
    item: SourceItemRow | null,
  ): Promise<'added' | 'updated' | 'unchanged' | SyncFailure> {
    const indexed = Boolean(item?.content_hash && item.document_id);
    if (item && !entry.force && item.fingerprint === entry.fingerprint) {
      // This very version failed before: it is not tried again until it changes.
      if (item.error) return { item: entry.key, reason: item.error };
      if (indexed) return 'unchanged';
    }
    let documentId: string | null = item?.document_id ?? null;
    try {
      const limit = this.env.UPLOAD_MAX_BYTES;
      if (entry.size !== null && entry.size > limit) throw tooLarge(entry.key, limit);
      const bytes = await entry.read();
      if (bytes.length > limit) throw tooLarge(entry.key, limit);
      const inspector = new ByteInspector();
      inspector.update(bytes);
      const facts = inspector.finish();
      if (!entry.force && indexed && item!.content_hash === facts.sha256) {
        // Touched, not changed (or the same bytes at a new commit): remember the new fingerprint.
        await this.sources.itemSeen(source.id, entry.key, versionOf(entry));
        return 'unchanged';
      }
      const format = entry.format ?? sourceFileFormat(entry.key)!;
      const problem = findUploadProblem(entry.key, format, facts);
      if (problem) throw new ItemProblem(problem);
      const kind = format.kind as SourceFormat;
      const fileName = entry.name ?? basename(entry.key);
      const document = {
        contentHash: facts.sha256,
        byteSize: facts.size,
        fileName,
        title: titleFromFileName(fileName),
        metadata: {
          format: kind,
          source: {
            id: source.id,
            kind: source.kind,
            path: entry.key,
            ...(entry.commit ? { commit: entry.commit } : {}),
            ...(entry.link ? { url: entry.link } : {}),
          },
        },
      };
      documentId ??= await this.sources.newItemDocument(
        { id: source.id, collectionId: source.collection_id },
        entry.key,
        format.mimeTypes[0]!,
        document,
      );
      const prepared = await this.work.prepare({
        documentId,
        format: kind,
        bytes,
        name: entry.key,
        title: document.title,
        titleFromFile: true,
        chunking: this.indexing.chunking,
        language: null,
        defaultLanguage: this.indexing.defaultLanguage,
        corpusLanguages: this.indexing.defaultLanguage ? {} : await this.indexing.languageCounts(),
      });
      await this.indexing.indexChunks([{ documentId, language: prepared.language }], prepared.chunks);
      await this.sources.itemIndexed(source.id, entry.key, documentId, versionOf(entry), {
        ...document,
        title: prepared.title,
      });
      return indexed ? 'updated' : 'added';
    } catch (error) {
      const reason = (error as Error).message ?? String(error);
      this.logger.warn(`source ${source.id}: "${entry.key}" was not indexed: ${reason}`);
      if (error instanceof ItemProblem || error instanceof UnreadableDocumentError) {
        // This version can never be indexed: it is not tried again until it changes.
        await this.sources.itemFailed(source.id, entry.key, entry.fingerprint, reason);
      } else {
        // It may pass (the embedder down, the database busy): the next sync tries again.
        await this.sources.itemPending(source.id, entry.key);
      }
      // A version indexed before stays searchable; a document that never was says why it failed.
      if (documentId && !indexed) await this.sources.failDocument(documentId, reason);
      return { item: entry.key, reason };
    }
  }
}

function versionOf(entry: ListedItem): ItemVersion {
  return {
    fingerprint: entry.fingerprint,
    commit: entry.commit,
    link: entry.link,
    etag: entry.etag,
    lastModified: entry.lastModified,
    links: entry.links,
  };
}

function tooLarge(key: string, limit: number): ItemProblem {
  return new ItemProblem(`"${key}" is larger than ${formatBytes(limit)} (UPLOAD_MAX_BYTES).`);
}

function titleFromFileName(name: string): string {
  const base = basename(name, extname(name)).replace(/[_]+/g, ' ').trim();
  return base || name;
}

import { Injectable, Logger } from '@nestjs/common';
import type {
  BeforeApplicationShutdown,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import type { DocumentStatus } from '@lumina/shared';
import { InjectConfig } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import { CollectionRepository } from '../collections/repositories/collection.repository';
import { IngestionQueue } from './ingestion-queue.service';
import type { EmbeddingProvider } from '@lumina/rag';
import { InjectEmbedder } from '../../providers/providers.module';
import { DocumentRepository } from './repositories/document.repository';
import { EmbedderStateRepository } from './repositories/embedder-state.repository';

/** A document this young may still be on its way to the queue (the upload request is enqueueing it). */
export const RECONCILE_GRACE_MS = 5_000;
/** Documents looked at per pass; a larger backlog is worked off over the next passes. */
const BATCH = 1_000;
/** Collections being deleted looked at per pass. */
const DELETIONS_BATCH = 100;
/** How long shutdown waits for a pass in progress. */
const SHUTDOWN_WAIT_MS = 1_000;

export interface ReconcileReport {
  /** Documents whose status said a job should exist. */
  checked: number;
  /** Of those, the ones that had no live job and were queued again. */
  requeued: number;
}

type RepairListener = (status: DocumentStatus, count: number) => void;

/**
 * Keeps the database and the queue in agreement: at boot and every RECONCILE_INTERVAL_MS, a document
 * whose status says queued or in progress but that has no live job in BullMQ (Redis came back empty,
 * a crash between the two writes) is queued again. Idempotent: the job id is the document's id, so a
 * document whose job exists is left alone, and its chunks are replaced in one transaction when it runs.
 * A collection marked as being deleted whose deletion job is gone gets its job again the same way.
 */
@Injectable()
export class IngestionReconciler
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger(IngestionReconciler.name);
  private readonly listeners: RepairListener[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<ReconcileReport> | null = null;
  private lastFailure: string | null = null;

  constructor(
    private readonly documents: DocumentRepository,
    private readonly queue: IngestionQueue,
    @InjectConfig() private readonly env: Env,
    private readonly collections: CollectionRepository,
    private readonly embedderState: EmbedderStateRepository,
    @InjectEmbedder() private readonly embedder: EmbeddingProvider,
  ) {}

  onApplicationBootstrap(): void {
    // Not awaited: a slow or absent Redis must not hold the API's start.
    void this.reconcile();
    this.timer = setInterval(() => void this.reconcile(), this.env.RECONCILE_INTERVAL_MS);
    this.timer.unref();
  }

  /**
   * No new pass, and the one running (the start's, typically) is given a moment to finish its queries
   * before the database closes under it; a pass waiting on an absent Redis is not waited for.
   */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    if (this.running) await Promise.race([this.running, delay(SHUTDOWN_WAIT_MS)]);
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Called with each repair (the status the document was stuck in); the metrics count them. */
  onRepair(listener: RepairListener): void {
    this.listeners.push(listener);
  }

  /** One pass (a pass already running is joined, not doubled). Never throws: a failure is logged once. */
  reconcile(): Promise<ReconcileReport> {
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }

  private async pass(): Promise<ReconcileReport> {
    try {
      await this.resumeDeletions();
      await this.resumeReembed();
      const stranded = await this.documents.stranded(RECONCILE_GRACE_MS, BATCH);
      if (stranded.length === 0) return this.succeeded({ checked: 0, requeued: 0 });
      const requeued = new Set(await this.queue.requeueMissing(stranded));
      const byStatus = new Map<DocumentStatus, number>();
      for (const document of stranded) {
        if (requeued.has(document.id))
          byStatus.set(document.status, (byStatus.get(document.status) ?? 0) + 1);
      }
      for (const [status, count] of byStatus) for (const listener of this.listeners) listener(status, count);
      if (requeued.size > 0) {
        this.logger.warn(
          `reconciler: ${requeued.size} of ${stranded.length} unfinished documents had no job and were queued again ` +
            `(${[...byStatus].map(([status, count]) => `${count} ${status}`).join(', ')})`,
        );
      }
      return this.succeeded({ checked: stranded.length, requeued: requeued.size });
    } catch (error) {
      const reason = (error as Error).message;
      if (reason !== this.lastFailure) this.logger.warn(`reconciler: pass skipped: ${reason}`);
      this.lastFailure = reason;
      return { checked: 0, requeued: 0 };
    }
  }

  /**
   * After a switch of embedder (database/embedder-switch.ts) the chunks wait for vectors of the new
   * model: the re-embed job is queued (one job id per model, so never twice) until it has finished.
   */
  private async resumeReembed(): Promise<void> {
    const state = await this.embedderState.read();
    if (!state?.reembedPending || state.model !== this.embedder.modelId) return;
    const { alreadyQueued } = await this.queue.enqueueReembed(state.model);
    if (!alreadyQueued) this.logger.log(`reconciler: queued the re-embed of the chunks with ${state.model}`);
  }

  /** Collections marked as being deleted whose job is gone (a flushed Redis, a crash) get one again. */
  private async resumeDeletions(): Promise<void> {
    const deleting = await this.collections.strandedDeletions(RECONCILE_GRACE_MS, DELETIONS_BATCH);
    const requeued = await this.queue.requeueCollectionDeletions(deleting);
    if (requeued.length > 0) {
      this.logger.warn(
        `reconciler: ${requeued.length} collection(s) being deleted had no deletion job and got one again`,
      );
    }
  }

  private succeeded(report: ReconcileReport): ReconcileReport {
    if (this.lastFailure !== null) this.logger.log('reconciler: running again');
    this.lastFailure = null;
    return report;
  }
}

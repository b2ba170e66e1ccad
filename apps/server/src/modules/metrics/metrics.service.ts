import { Injectable, Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import type { OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { JobName } from '../../jobs/job-catalogue';
import { JobEventsService } from '../../jobs/job-events.service';
import type { JobEvent } from '../../jobs/job-events.service';
import { QueueName } from '../../jobs/queue-name.enum';
import { InjectRedis } from '../../jobs/redis-client.provider';
import { redisUnavailable, withinRedisDeadline } from '../../jobs/redis-deadline';
import { IngestionReconciler } from '../ingestion/ingestion-reconciler.service';
import { RequestMetrics } from './request-metrics';
import { CollectionStatsRepository } from './repositories/collection-stats.repository';
import type { CollectionStats } from './repositories/collection-stats.repository';

const JOB_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed', 'completed'] as const;

/**
 * Prometheus metrics of this installation. Queue depths are read from Redis at each scrape; job
 * durations and ingestion throughput are counted from the queue's event stream, so they include jobs
 * that workers in other processes ran (each API process counts every job once).
 */
@Injectable()
export class MetricsService implements OnModuleInit {
  readonly registry = new Registry();
  /** This service's series with the request series (HTTP, search, chat) that RequestMetrics records. */
  private readonly scraped: Registry;
  private readonly logger = new Logger(MetricsService.name);
  private readonly queues = new Map<QueueName, Queue>();
  /** Whether Redis answered this scrape's PING (set by text() before the gauges collect). */
  private redisAnswered: Promise<boolean> = Promise.resolve(false);

  private readonly jobDuration = new Histogram({
    name: 'lumina_job_duration_seconds',
    help: 'Time from a job attempt starting to the job finishing, by queue, job name and outcome',
    labelNames: ['queue', 'name', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600],
    registers: [this.registry],
  });

  private readonly jobsFinished = new Counter({
    name: 'lumina_jobs_finished_total',
    help: 'Jobs that finished, by queue, job name and outcome (completed or failed)',
    labelNames: ['queue', 'name', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly documentsIngested = new Counter({
    name: 'lumina_ingested_documents_total',
    help: 'Documents the ingestion jobs finished, by outcome (indexed, already-indexed, cancelled, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private readonly chunksIngested = new Counter({
    name: 'lumina_ingested_chunks_total',
    help: 'Chunks written (with their vectors) by ingestion jobs',
    registers: [this.registry],
  });

  private readonly chunksReembedded = new Counter({
    name: 'lumina_reembedded_chunks_total',
    help: 'Chunks given a vector of the current model by re-embed jobs',
    registers: [this.registry],
  });

  private readonly documentsRequeued = new Counter({
    name: 'lumina_reconciler_requeued_documents_total',
    help:
      'Documents the reconciler queued again because their status said queued or in progress but no job ' +
      'existed, by the status they were stuck in',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly jobEvents: JobEventsService,
    @InjectRedis() private readonly redis: Redis,
    requestMetrics: RequestMetrics,
    collectionStats: CollectionStatsRepository,
  ) {
    collectDefaultMetrics({ register: this.registry, prefix: 'lumina_' });
    const queues = this.queues;
    // One PING per scrape (text() starts it), shared by both gauges: during a Redis outage the scrape
    // answers at once, without the queue depths, instead of waiting for the outage to end.
    const redisUp = (): Promise<boolean> => this.redisAnswered;
    new Gauge({
      name: 'lumina_redis_up',
      help: 'Whether Redis answered a PING within 2 s at scrape time (0: the queue depths are left out)',
      registers: [this.registry],
      async collect() {
        this.set((await redisUp()) ? 1 : 0);
      },
    });
    new Gauge({
      name: 'lumina_queue_jobs',
      help: 'Jobs in each queue by state (waiting, active, delayed, failed, completed, …), read at scrape time',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        if (!(await redisUp())) return;
        await Promise.all(
          [...queues].map(async ([name, queue]) => {
            const counts = await withinRedisDeadline(queue.getJobCounts(...JOB_STATES), 'job counts').catch(
              () => null,
            );
            if (counts) for (const state of JOB_STATES) this.set({ queue: name, state }, counts[state] ?? 0);
          }),
        );
      },
    });
    this.collectionGauges(collectionStats);
    // Last: merge copies the series registered so far.
    this.scraped = Registry.merge([this.registry, requestMetrics.registry]);
  }

  /**
   * Per collection, read at scrape time: its slug (an info series to join on), its documents by status
   * and its chunks. The `collection` label is the collection's id, which a rename or re-slug keeps.
   */
  private collectionGauges(stats: CollectionStatsRepository): void {
    const logger = this.logger;
    let read: Promise<CollectionStats[]> | null = null;
    // One query per scrape, shared by the three gauges (the first to collect starts it).
    const once = (): Promise<CollectionStats[]> => {
      read ??= stats.all().catch((error: unknown) => {
        logger.warn(`could not read the collections' sizes: ${(error as Error).message}`);
        return [];
      });
      return read;
    };
    this.forgetCollectionStats = () => (read = null);
    new Gauge({
      name: 'lumina_collection_info',
      help: 'One series per collection (value 1): its id, slug and whether it is being deleted',
      labelNames: ['collection', 'slug', 'deleting'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const c of await once())
          this.set({ collection: c.id, slug: c.slug, deleting: String(c.deleting) }, 1);
      },
    });
    new Gauge({
      name: 'lumina_collection_documents',
      help: 'Documents of each collection by status (indexed, queued, failed, …), read at scrape time',
      labelNames: ['collection', 'status'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const c of await once()) {
          for (const [status, count] of Object.entries(c.documents))
            this.set({ collection: c.id, status }, count);
        }
      },
    });
    new Gauge({
      name: 'lumina_collection_chunks',
      help: 'Indexed chunks (passages) of each collection, read at scrape time',
      labelNames: ['collection'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const c of await once()) this.set({ collection: c.id }, c.chunks);
      },
    });
  }

  /** Set by collectionGauges: the next scrape reads the collections again. */
  private forgetCollectionStats: () => void = () => undefined;

  onModuleInit(): void {
    this.moduleRef
      .get(IngestionReconciler, { strict: false })
      .onRepair((status, count) => this.documentsRequeued.inc({ status }, count));
    for (const name of Object.values(QueueName)) {
      this.queues.set(name, this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }));
      this.jobEvents.subscribe(name, (event) => {
        if (event.type === 'completed' || event.type === 'failed') {
          this.recordFinished(event).catch((error: unknown) =>
            this.logger.warn(`could not record job ${event.jobId}: ${(error as Error).message}`),
          );
        }
      });
    }
  }

  async text(): Promise<string> {
    this.forgetCollectionStats();
    this.redisAnswered = redisUnavailable(this.redis).then((reason) => reason === null);
    return this.scraped.metrics();
  }

  private async recordFinished(event: Extract<JobEvent, { type: 'completed' | 'failed' }>): Promise<void> {
    const queue = this.queues.get(event.queue);
    const job = queue ? await queue.getJob(event.jobId) : undefined;
    const name = job?.name ?? 'unknown';
    const outcome = event.type;
    this.jobsFinished.inc({ queue: event.queue, name, outcome });
    if (job?.processedOn && job.finishedOn) {
      this.jobDuration.observe(
        { queue: event.queue, name, outcome },
        (job.finishedOn - job.processedOn) / 1000,
      );
    }
    if (name === JobName.IngestDocument) {
      const result =
        event.type === 'completed' ? (event.returnvalue as { outcome?: string; chunks?: number }) : null;
      this.documentsIngested.inc({ outcome: result?.outcome ?? 'failed' });
      if (result?.outcome === 'indexed' && typeof result.chunks === 'number')
        this.chunksIngested.inc(result.chunks);
    } else if (name === JobName.ReembedChunks && event.type === 'completed') {
      const result = event.returnvalue as { chunks?: number } | null;
      if (typeof result?.chunks === 'number') this.chunksReembedded.inc(result.chunks);
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type {
  ComponentStatus,
  HealthReport,
  LivenessReport,
  LocalModelHealth,
  ReadinessReport,
} from '@lumina/shared';
import type Redis from 'ioredis';
import { DATABASE_CONNECTION } from '../../database/database-connection';
import type { DatabaseConnection } from '../../database/database-connection';
import { InjectRedis } from '../../jobs/redis-client.provider';
import type { ChatModel, EmbeddingProvider } from '@lumina/rag';
import type { LocalChatModelSetup } from '../../providers/create-chat-model';
import {
  InjectChatModel,
  InjectEmbedder,
  InjectLocalChatModel,
  InjectSearchModel,
} from '../../providers/providers.module';
import { RerankerRegistry } from '../reranker/reranker-registry.service';
import { InjectConfig } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import { EmbedderStateRepository } from '../ingestion/repositories/embedder-state.repository';
import { DatabaseProbeRepository } from './repositories/database-probe.repository';

const CHECK_TIMEOUT_MS = 2_000;

@Injectable()
export class HealthService {
  constructor(
    private readonly database: DatabaseProbeRepository,
    @InjectRedis() private readonly redis: Redis,
    @Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection,
    @InjectChatModel() private readonly chatModel: ChatModel | null,
    private readonly rerankers: RerankerRegistry,
    @InjectEmbedder() private readonly embedder: EmbeddingProvider,
    @InjectSearchModel() private readonly searchModel: ChatModel | null,
    @InjectLocalChatModel() private readonly local: LocalChatModelSetup,
    private readonly embedderState: EmbedderStateRepository,
    @InjectConfig() private readonly env: Env,
  ) {}

  live(): LivenessReport {
    return { status: 'alive', uptimeSeconds: Math.round(process.uptime()) };
  }

  async ready(): Promise<ReadinessReport> {
    const { database, redis } = await this.probeDependencies();
    return {
      status: database.status === 'up' && redis.status === 'up' ? 'ready' : 'not-ready',
      database,
      redis,
    };
  }

  /**
   * `detailed`: an admin asks. Anyone else (the route needs no key) is not told what the collections
   * hold: no document counts by language, and no fitted reranker's name (it is made from a bank's name).
   */
  async check(detailed: boolean): Promise<HealthReport> {
    const { database, redis } = await this.probeDependencies();
    return {
      status: database.status === 'up' && redis.status === 'up' ? 'ok' : 'degraded',
      database,
      redis,
      llm: {
        configured: this.chatModel !== null,
        model: this.chatModel?.modelId ?? null,
        search: {
          source: this.chatModel ? 'endpoint' : this.searchModel ? 'local' : 'offline',
          model: this.searchModel?.modelId ?? null,
        },
        local: this.localHealth(),
      },
      reranker: this.rerankerStatus(detailed),
      embedder: {
        model: this.embedder.modelId,
        dimension: this.embedder.dimension,
        reembedding: detailed && database.status === 'up' ? await this.reembedding() : null,
        fallback: this.env.embeddingsFallback ?? null,
      },
      documentLanguages: detailed && database.status === 'up' ? await this.languageCounts() : {},
      uptimeSeconds: Math.round(process.uptime()),
    };
  }

  /** The documents' languages; a health check never fails on them (a slow or failed read is `{}`). */
  private async languageCounts(): Promise<Record<string, number>> {
    let counts: Record<string, number> = {};
    await probe(async () => {
      counts = await this.database.languageCounts();
    });
    return counts;
  }

  /** The re-embedding under way; a health check never fails on it (a slow or failed read is null). */
  private async reembedding(): Promise<{ done: number; total: number } | null> {
    let progress: { done: number; total: number } | null = null;
    await probe(async () => {
      progress = await this.embedderState.reembedding(this.embedder.modelId);
    });
    return progress;
  }

  private localHealth(): LocalModelHealth | null {
    const local = this.local;
    if (local.state === 'off') return null;
    if (local.state === 'missing') {
      return {
        model: local.model,
        state: 'missing',
        description: null,
        sha256: null,
        loadMs: null,
        threads: null,
        sequences: null,
        reason: local.reason,
      };
    }
    const status = local.model.status();
    return {
      model: status.model,
      state: 'ready',
      description: status.description,
      sha256: status.sha256,
      loadMs: status.loadMs,
      threads: status.threads,
      sequences: status.sequences,
    };
  }

  private rerankerStatus(detailed: boolean): HealthReport['reranker'] {
    const { model, source } = this.rerankers.describe();
    return { configured: model !== null, model: detailed || source !== 'fitted' ? model : null, source };
  }

  private async probeDependencies(): Promise<Pick<HealthReport, 'database' | 'redis'>> {
    const [database, redis] = await Promise.all([
      probe(() => this.database.ping()),
      probe(async () => {
        if (this.redis.status === 'wait' || this.redis.status === 'end') await this.redis.connect();
        await this.redis.ping();
      }),
    ]);
    return { database: { ...database, driver: this.connection.driver }, redis };
  }
}

async function probe(
  action: () => Promise<unknown>,
): Promise<{ status: ComponentStatus; latencyMs: number; error?: string }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      action(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
          CHECK_TIMEOUT_MS,
        );
      }),
    ]);
    return { status: 'up', latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      status: 'down',
      latencyMs: Math.round(performance.now() - started),
      error: (error as Error).message,
    };
  } finally {
    clearTimeout(timer);
  }
}

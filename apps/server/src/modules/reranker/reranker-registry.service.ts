import { Injectable, Logger } from '@nestjs/common';
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { LearnedReranker, LlmListwiseReranker, parseLtrModel } from '@lumina/rag';
import type { AnyReranker } from '@lumina/rag';
import type { ActiveReranker, RerankerMeasurement, RerankerSource } from '@lumina/shared';
import { HttpReranker } from '../../providers/http-reranker';
import { InjectReranker } from '../../providers/providers.module';
import { RerankerModelRepository } from './repositories/reranker-model.repository';

/** How often a process looks for a model switched on by another process (the API or a worker). */
export const ACTIVE_MODEL_POLL_MS = 10_000;

interface FittedReranker {
  id: string;
  reranker: LearnedReranker;
  preferred: RerankerMeasurement['preferred'];
}

/**
 * Which reranker serves `enableRerank`, decided per search:
 *   1. the active fitted model, when its bank measured it better than the configured reranker;
 *   2. a /v1/rerank endpoint (RERANK_BASE_URL), else the LLM listwise;
 *   3. the active fitted model (offline, once a model exists);
 *   4. the learned model of RERANK_MODEL_FILE;
 *   5. none.
 * The active model is read from the database at start, after a switch in this process, and every
 * ACTIVE_MODEL_POLL_MS, so a model activated elsewhere is served within seconds.
 */
@Injectable()
export class RerankerRegistry implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RerankerRegistry.name);
  private fitted: FittedReranker | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @InjectReranker() private readonly configured: AnyReranker | null,
    private readonly models: RerankerModelRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), ACTIVE_MODEL_POLL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /**
   * Reads which model is active again; its model is loaded only when another one became active (a fitted
   * model never changes once ready). A failure keeps the one known (and is logged).
   */
  async refresh(): Promise<void> {
    try {
      const head = await this.models.findActiveHead();
      if (!head) {
        this.fitted = null;
        return;
      }
      const preferred = head.measurement?.preferred ?? 'learned';
      if (this.fitted?.id === head.id) {
        this.fitted.preferred = preferred;
        return;
      }
      const model = (await this.models.findById(head.id))?.model;
      this.fitted = model
        ? { id: head.id, reranker: new LearnedReranker(parseLtrModel(model)), preferred }
        : null;
    } catch (error) {
      this.logger.warn({
        msg: 'could not read the active reranker model',
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** The reranker a search with `enableRerank` uses now (null: none; the fused order is kept). */
  current(): AnyReranker | null {
    return this.active().reranker;
  }

  /** The configured reranker alone (an endpoint or the LLM; a model file counts too), for comparisons. */
  configuredReranker(): AnyReranker | null {
    return this.configured;
  }

  /** Whether the configured reranker reads texts (an endpoint or the LLM), not the index's evidence. */
  configuredCallsModel(): boolean {
    const source = sourceOf(this.configured);
    return source === 'endpoint' || source === 'llm';
  }

  describe(): ActiveReranker {
    const { reranker, source } = this.active();
    return {
      model: reranker?.modelId ?? null,
      source,
      rerankerId: source === 'fitted' ? (this.fitted?.id ?? null) : null,
    };
  }

  private active(): { reranker: AnyReranker | null; source: RerankerSource | null } {
    const fitted = this.fitted;
    if (fitted && (fitted.preferred === 'learned' || !this.configuredCallsModel()))
      return { reranker: fitted.reranker, source: 'fitted' };
    return { reranker: this.configured, source: sourceOf(this.configured) };
  }
}

function sourceOf(reranker: AnyReranker | null): RerankerSource | null {
  if (!reranker) return null;
  if (reranker instanceof HttpReranker) return 'endpoint';
  if (reranker instanceof LlmListwiseReranker) return 'llm';
  return 'file';
}

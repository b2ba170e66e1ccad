import { Injectable, Logger } from '@nestjs/common';
import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { LearnedReranker, LlmListwiseReranker, parseLtrModel } from '@lumina/rag';
import type { AnyReranker } from '@lumina/rag';
import type { ActiveReranker, RerankerMeasurement, RerankerSource } from '@lumina/shared';
import { HttpReranker } from '../../providers/http-reranker';
import { OnnxCrossEncoderReranker } from '../../providers/onnx-cross-encoder-reranker';
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
 * Which reranker serves `enableRerank`, decided per search. A fitted model belongs to the collection of
 * the bank it was fitted on and serves searches of that collection alone (a search of several
 * collections, or of one without an active model, has no fitted model):
 *   1. the collection's active fitted model, when its bank measured it better than the configured reranker;
 *   2. a /v1/rerank endpoint (RERANK_BASE_URL), else the cross-encoder of RERANK_CROSS_ENCODER_DIR, else
 *      the LLM listwise;
 *   3. the collection's active fitted model (offline, once a model exists);
 *   4. the learned model of RERANK_MODEL_FILE;
 *   5. none.
 * The active models are read from the database at start, after a switch in this process, and every
 * ACTIVE_MODEL_POLL_MS, so a model activated elsewhere is served within seconds.
 */
@Injectable()
export class RerankerRegistry implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RerankerRegistry.name);
  /** Each collection's active fitted model. */
  private fitted = new Map<string, FittedReranker>();
  /** Every collection (what a search naming none reads). */
  private collections: string[] = [];
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
      const [heads, collections] = await Promise.all([
        this.models.findActiveHeads(),
        this.models.collectionIds(),
      ]);
      const fitted = new Map<string, FittedReranker>();
      for (const head of heads) {
        const preferred = head.measurement?.preferred ?? 'learned';
        const known = this.fitted.get(head.collectionId);
        if (known?.id === head.id) {
          fitted.set(head.collectionId, { ...known, preferred });
          continue;
        }
        const model = (await this.models.findById(head.id))?.model;
        if (model) {
          fitted.set(head.collectionId, {
            id: head.id,
            reranker: new LearnedReranker(parseLtrModel(model)),
            preferred,
          });
        }
      }
      this.fitted = fitted;
      this.collections = collections;
    } catch (error) {
      this.logger.warn({
        msg: 'could not read the active reranker model',
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /**
   * The reranker a search of `collectionIds` (absent: every collection) with `enableRerank` uses now
   * (null: none; the fused order is kept).
   */
  current(collectionIds?: readonly string[]): AnyReranker | null {
    return this.active(collectionIds).reranker;
  }

  /** The configured reranker alone (an endpoint or the LLM; a model file counts too), for comparisons. */
  configuredReranker(): AnyReranker | null {
    return this.configured;
  }

  /**
   * Whether the configured reranker reads texts (an endpoint, the LLM or the in-process cross-encoder),
   * not the index's evidence.
   */
  configuredCallsModel(): boolean {
    const source = sourceOf(this.configured);
    return source === 'endpoint' || source === 'llm' || source === 'cross-encoder';
  }

  /** What a search of `collectionIds` (absent: every collection) uses. */
  describe(collectionIds?: readonly string[]): ActiveReranker {
    const { reranker, source, id } = this.active(collectionIds);
    return { model: reranker?.modelId ?? null, source, rerankerId: id };
  }

  private active(collectionIds: readonly string[] = this.collections): {
    reranker: AnyReranker | null;
    source: RerankerSource | null;
    id: string | null;
  } {
    const fitted = collectionIds.length === 1 ? this.fitted.get(collectionIds[0]) : undefined;
    if (fitted && (fitted.preferred === 'learned' || !this.configuredCallsModel()))
      return { reranker: fitted.reranker, source: 'fitted', id: fitted.id };
    return { reranker: this.configured, source: sourceOf(this.configured), id: null };
  }
}

function sourceOf(reranker: AnyReranker | null): RerankerSource | null {
  if (!reranker) return null;
  if (reranker instanceof HttpReranker) return 'endpoint';
  if (reranker instanceof LlmListwiseReranker) return 'llm';
  if (reranker instanceof OnnxCrossEncoderReranker) return 'cross-encoder';
  return 'file';
}

import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { isTreesModel } from '@lumina/rag';
import type { LearnedRankingModel } from '@lumina/rag';
import { DEFAULT_SETTINGS, RERANKER_MIN_QUESTIONS } from '@lumina/shared';
import type {
  ActiveReranker,
  FitRerankerRequest,
  ListRerankersQuery,
  Page,
  RerankerModelSummary,
} from '@lumina/shared';
import { modelImportance, round4 } from '@lumina/eval';
import { Queue } from 'bullmq';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import { JobName, jobOptions } from '../../jobs/job-catalogue';
import { QueueName } from '../../jobs/queue-name.enum';
import { QuestionBankService } from '../question-bank/question-bank.service';
import type { RerankerModelDigest, RerankerModelEntity } from './entities/reranker-model.entity';
import { RerankerModelRepository } from './repositories/reranker-model.repository';
import { RerankerRegistry } from './reranker-registry.service';
import { ALL_COLLECTIONS, readableIds } from '../auth/principal';
import type { CollectionAccess } from '../auth/principal';
import { CollectionScope } from '../collections/collection-scope.service';
import { manageableIds } from '../collections/collection-work.guard';

/** Features listed in a summary's importance table. */
const IMPORTANCE_SHOWN = 8;

/**
 * Learned rerankers fitted on question banks: a request queues a fitting job; a fitted model can be
 * switched on (it then serves `enableRerank`), off, downloaded or deleted.
 */
@Injectable()
export class RerankerModelService {
  constructor(
    private readonly models: RerankerModelRepository,
    private readonly banks: QuestionBankService,
    private readonly registry: RerankerRegistry,
    private readonly collections: CollectionScope,
    @InjectQueue(QueueName.Evaluation) private readonly queue: Queue,
  ) {}

  /**
   * Records a queued fit on the bank and queues its job; 404 for an unknown bank, 400 (and no model
   * recorded) for an empty one or one with fewer in-scope questions with expected sources than a fit needs.
   */
  async request(bankId: string, body: FitRerankerRequest): Promise<RerankerModelSummary> {
    const bank = await this.banks.findOne(bankId);
    if (bank.itemCount === 0)
      throw new InvalidRequestError([`question bank ${bankId} has no items to fit a reranker on`]);
    if (bank.judgedItemCount < RERANKER_MIN_QUESTIONS)
      throw new InvalidRequestError([
        `question bank ${bankId} has ${bank.judgedItemCount} in-scope question(s) with expected sources; ` +
          `fitting a reranker needs at least ${RERANKER_MIN_QUESTIONS}`,
      ]);
    const version = await this.nextVersion(bankId, bank.name);
    const row = await this.models.insert({
      version,
      bankId,
      bankName: bank.name,
      collectionId: bank.collectionId,
      learner: body.learner ?? 'linear',
      candidateK: DEFAULT_SETTINGS.candidateK,
      activateWhenReady: body.activate ?? true,
    });
    await this.queue.add(JobName.FitReranker, { modelId: row.id }, jobOptions(JobName.FitReranker, row.id));
    return toSummary(row);
  }

  /** The fitted rerankers of the collections `access` manages (every one for an admin key). */
  async findAll(
    query: ListRerankersQuery,
    access: CollectionAccess = ALL_COLLECTIONS,
  ): Promise<Page<RerankerModelSummary>> {
    const window = pageWindow(query);
    if (query.bankId) await this.banks.assertExists(query.bankId);
    const [rows, total] = await this.models.summaries(
      query.bankId,
      manageableIds(access),
      window.offset,
      window.limit,
    );
    return pageOf(rows.map(toSummary), total, window);
  }

  async findOne(id: string): Promise<RerankerModelSummary> {
    return toSummary(await this.row(id));
  }

  /** The fitted model as JSON: what RERANK_MODEL_FILE reads on another server. */
  async modelOf(id: string): Promise<LearnedRankingModel> {
    const row = await this.row(id);
    if (!row.model) throw new ConflictError(`reranker ${row.version} is ${row.status}: it has no model yet`);
    return row.model;
  }

  /** Makes it the model that serves `enableRerank`. */
  async activate(id: string): Promise<RerankerModelSummary> {
    const row = await this.row(id);
    if (row.status !== 'ready')
      throw new ConflictError(
        `reranker ${row.version} is ${row.status}; only a fitted model can be switched on`,
      );
    await this.models.activate(id, row.collectionId);
    await this.registry.refresh();
    return this.findOne(id);
  }

  /** Switches it off: `enableRerank` falls back to the configured reranker, if any. */
  async deactivate(id: string): Promise<RerankerModelSummary> {
    const row = await this.row(id);
    if (row.active) {
      await this.models.deactivate(id);
      await this.registry.refresh();
    }
    return this.findOne(id);
  }

  async remove(id: string): Promise<void> {
    const row = await this.row(id);
    if (row.status === 'queued' || row.status === 'fitting')
      throw new ConflictError(
        `reranker ${row.version} is still ${row.status}; delete it once it has finished`,
      );
    await this.models.remove(id);
    if (row.active) await this.registry.refresh();
  }

  /**
   * Read from the database first: a fit that finished in a worker (here or in another process) is what
   * serves from now on, not ACTIVE_MODEL_POLL_MS later.
   */
  /**
   * What serves enableRerank in a search of `collectionId` (which `access` must read), or of every
   * collection `access` reads when absent.
   */
  async active(access: CollectionAccess, collectionId?: string): Promise<ActiveReranker> {
    if (collectionId) await this.collections.assertReadable(access, collectionId);
    await this.registry.refresh();
    return this.registry.describe(collectionId ? [collectionId] : (readableIds(access) ?? undefined));
  }

  private async row(id: string): Promise<RerankerModelEntity> {
    const row = await this.models.findById(id);
    if (!row) throw new NotFoundError(`reranker ${id} not found`);
    return row;
  }

  /** `<bank name as a slug>-v<n>`, unique. */
  private async nextVersion(bankId: string, bankName: string): Promise<string> {
    const slug =
      bankName
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 40) || 'bank';
    let n = (await this.models.countForBank(bankId)) + 1;
    while (await this.models.versionTaken(`${slug}-v${n}`)) n++;
    return `${slug}-v${n}`;
  }
}

export function toSummary(row: RerankerModelEntity): RerankerModelSummary {
  return {
    id: row.id,
    version: row.version,
    bankId: row.bankId,
    bankName: row.bankName,
    collectionId: row.collectionId,
    status: row.status,
    learner: row.learner,
    candidateK: row.candidateK,
    active: row.active,
    activateWhenReady: row.activateWhenReady,
    error: row.error,
    note: row.note,
    measurement: row.measurement,
    training: row.summary?.training ?? null,
    importance: row.summary?.importance ?? [],
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** What lists show of a fitted model: its training size and the features it leans on most. */
export function digestOf(model: LearnedRankingModel): RerankerModelDigest {
  return {
    training: { queries: model.training.queries, pairs: model.training.pairs },
    importance: modelImportance(model)
      .slice(0, IMPORTANCE_SHOWN)
      .map(({ feature, value }) => ({
        feature,
        value: isTreesModel(model) ? value : round4(value),
      })),
  };
}

import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import {
  ablationFigures,
  compareEvalRuns,
  enhancementsWorseThanOff,
  evaluateBankItems,
  searchLlmCalls,
} from '@lumina/eval';
import { isEvidenceReranker, offlineAnswerOf, searchKnowledge } from '@lumina/rag';
import type { ChatModel, SearchOptions, SearchPorts, EmbeddingProvider } from '@lumina/rag';
import { resolveSettings } from '@lumina/shared';
import type { EvalRun, EvalRunComparison, EvalRunSummary, Page, SearchSettings } from '@lumina/shared';
import { Queue } from 'bullmq';
import { InjectConfig } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import { JobName, jobOptions } from '../../jobs/job-catalogue';
import { QueueName } from '../../jobs/queue-name.enum';
import { InjectEmbedder, InjectSearchModel } from '../../providers/providers.module';
import { RerankerRegistry } from '../reranker/reranker-registry.service';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import { QuestionBankItemService } from '../question-bank/question-bank-item.service';
import { QuestionBankService } from '../question-bank/question-bank.service';
import { CorpusRepository } from '../question-bank/repositories/corpus.repository';
import { InjectSearchPorts } from '../rag/search-ports.module';
import type { AppSearchPorts } from '../rag/search-ports.module';
import type { EvalRunEntity } from './entities/eval-run.entity';
import { AblationRepository } from './repositories/ablation.repository';
import { EvalRunRepository } from './repositories/eval-run.repository';
import { InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';
import { ALL_COLLECTIONS } from '../auth/principal';
import type { CollectionAccess } from '../auth/principal';
import { manageableIds } from '../collections/collection-work.guard';
import { CollectionScope } from '../collections/collection-scope.service';

/** The job's run row is gone (its bank was deleted): the job can never succeed. */
export class EvalRunMissingError extends NotFoundError {}

/**
 * Evaluation runs of question banks: queued as jobs, executed with the app's search (the ports and
 * options of createSearchPorts, as the API and the eval command build them) and libs/eval's scoring.
 */
@Injectable()
export class EvaluationService {
  private readonly logger = new Logger(EvaluationService.name);
  private readonly ports: SearchPorts;
  private readonly options: Partial<SearchOptions>;

  constructor(
    private readonly runs: EvalRunRepository,
    private readonly corpus: CorpusRepository,
    @InjectConfig() private readonly env: Env,
    @InjectEmbedder() private readonly embedder: EmbeddingProvider,
    @InjectQueue(QueueName.Evaluation) private readonly queue: Queue,
    private readonly banks: QuestionBankService,
    private readonly items: QuestionBankItemService,
    @InjectSearchModel() private readonly chatModel: ChatModel | null,
    private readonly rerankers: RerankerRegistry,
    @InjectSearchPorts() search: AppSearchPorts,
    private readonly ablations: AblationRepository,
    private readonly collections: CollectionScope,
  ) {
    // The very ports RagService searches with (POST /rag/search), LLM ports included when configured;
    // the reranker is the registry's when a run starts.
    this.ports = search.ports;
    this.options = search.options;
  }

  /** Records a queued run and queues its job (the run id is the job id). */
  async request(bankId: string, overrides: Partial<SearchSettings>): Promise<EvalRunSummary> {
    const itemCount = await this.assertEvaluable(bankId);
    const [run] = await this.createRuns(bankId, itemCount, [resolveSettings({ ...overrides })], null);
    await this.queue.add(JobName.EvaluateBank, { runId: run.id }, jobOptions(JobName.EvaluateBank, run.id));
    return toSummary(run);
  }

  /** The bank's item count; 404 for an unknown bank, 400 for one with nothing to evaluate. */
  async assertEvaluable(bankId: string): Promise<number> {
    const bank = await this.banks.findOne(bankId);
    if (bank.itemCount === 0)
      throw new InvalidRequestError([`question bank ${bankId} has no items to evaluate`]);
    return bank.itemCount;
  }

  /** Records queued runs, one per settings object, in order (an ablation's combinations, or one run). */
  async createRuns(
    bankId: string,
    itemCount: number,
    settings: SearchSettings[],
    ablationId: string | null,
  ): Promise<EvalRunEntity[]> {
    return this.runs.insert(
      settings.map((runSettings) => ({
        bankId,
        ablationId,
        status: 'queued' as const,
        settings: runSettings,
        searchOptions: { ...this.options },
        embeddingModel: this.embedder.modelId,
        chatModel: null,
        promptVersions: {},
        itemCount,
      })),
    );
  }

  /**
   * The adaptive branches (expansion, HyDE) the bank's latest completed ablation measured worse than off
   * for these settings' ranker; none when neither is adaptive or the bank has no completed ablation.
   */
  private async measuredWorse(bankId: string, settings: SearchSettings): Promise<('expansion' | 'hyde')[]> {
    if (settings.enableQueryExpansion !== 'adaptive' && settings.enableHyDE !== 'adaptive') return [];
    const [latest] = await this.ablations.latestCompleted(bankId);
    if (!latest) return [];
    const rows = (await this.ablations.rows(latest.id)).map((row) => ({
      runId: row.id,
      switches: {
        ranker: row.settings.ranker,
        enableQueryExpansion: row.settings.enableQueryExpansion,
        enableHyDE: row.settings.enableHyDE,
        enableRerank: row.settings.enableRerank,
      },
      status: row.status,
      figures: row.status === 'completed' ? ablationFigures(row) : null,
    }));
    return enhancementsWorseThanOff(rows).flatMap((worse) =>
      worse.ranker === settings.ranker && worse.enhancement !== 'rerank' ? [worse.enhancement] : [],
    );
  }

  /**
   * What this server's searches of the bank's collection can switch on: LLM-written (else PRF)
   * expansion and HyDE, and a reranker.
   */
  async capabilities(bankId: string): Promise<{ generator: 'llm' | 'prf'; rerankAvailable: boolean }> {
    const bank = await this.banks.findOne(bankId);
    return {
      generator: this.ports.expander && this.ports.hyde ? 'llm' : 'prf',
      rerankAvailable: Boolean(this.rerankers.current([bank.collectionId])),
    };
  }

  /** The job: run every item, store metrics and per-item results; a failure is stored on the run. */
  async execute(
    runId: string,
    onProgress: (fraction: number) => Promise<void> = async () => undefined,
  ): Promise<EvalRunSummary> {
    const run = await this.runs.findById(runId);
    if (!run) throw new EvalRunMissingError(`evaluation run ${runId} no longer exists`);
    run.status = 'running';
    run.startedAt = new Date();
    run.error = null;
    await this.runs.save(run);
    try {
      const items = await this.items.allItems(run.bankId);
      // The bank's collection is what its questions are asked of, searched as POST /rag/search would
      // search it, with the reranker that serves enableRerank there when the run starts.
      const bank = await this.banks.findOne(run.bankId);
      const missingIds = await this.missingSources(
        items.flatMap((item) => item.expectedSources),
        bank.collectionId,
      );
      let lastReported = 0;
      const scope = await this.collections.searchable(ALL_COLLECTIONS, [bank.collectionId]);
      const ports: SearchPorts = {
        ...this.ports,
        reranker: this.rerankers.current(scope.collectionIds) ?? undefined,
      };
      const rerankerCallsModel = Boolean(ports.reranker && !isEvidenceReranker(ports.reranker));
      // An adaptive branch the bank's latest ablation measured worse than off never runs on this bank.
      const options: Partial<SearchOptions> = {
        ...this.options,
        collectionIds: scope.filter,
        measuredWorse: await this.measuredWorse(run.bankId, run.settings),
      };
      const evaluation = await evaluateBankItems({
        bankId: run.bankId,
        items,
        settings: run.settings,
        missingIds,
        concurrency: this.env.EVALUATION_CONCURRENCY,
        search: (question) => searchKnowledge(question, run.settings, ports, options),
        llmCalls: (result) => searchLlmCalls(result, rerankerCallsModel),
        // Answer figures are measured on the offline answerer: deterministic, and no model is billed.
        answer: (question, result) => offlineAnswerOf(question, result, this.embedder),
        onProgress: (done, total) => {
          const fraction = done / total;
          if (fraction - lastReported >= 0.05 || done === total) {
            lastReported = fraction;
            void onProgress(fraction).catch(() => undefined);
          }
        },
      });
      Object.assign(run, {
        status: 'completed',
        itemCount: items.length,
        scoredItems: evaluation.scoredItems,
        datasetHash: evaluation.datasetHash,
        metrics: evaluation.metrics,
        intervals: evaluation.intervals,
        refusal: evaluation.refusal,
        answers: evaluation.answers,
        perItem: evaluation.perItem,
        timings: evaluation.timings,
        llmCalls: evaluation.llmCalls,
        chatModel: this.usesLlm(run.settings, ports) ? (this.chatModel?.modelId ?? null) : null,
        promptVersions: this.promptVersions(run.settings, ports),
        finishedAt: new Date(),
      });
      await this.runs.save(run);
      return toSummary(run);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error({ msg: 'evaluation run failed', runId, error: message });
      await this.runs.markFailed(runId, message, new Date());
      throw error;
    }
  }

  /** Runs of the banks `access` manages (every run for an admin key). */
  async findAll(
    query: { page?: number; limit?: number; bankId?: string },
    access: CollectionAccess = ALL_COLLECTIONS,
  ): Promise<Page<EvalRunSummary>> {
    const window = pageWindow(query);
    if (query.bankId) await this.banks.assertExists(query.bankId);
    const [runs, total] = await this.runs.summaries(
      query.bankId,
      manageableIds(access),
      window.offset,
      window.limit,
    );
    return pageOf(runs.map(toSummary), total, window);
  }

  async findOne(id: string): Promise<EvalRun> {
    const run = await this.runs.findById(id);
    if (!run) throw new NotFoundError(`evaluation run ${id} not found`);
    return toRun(run);
  }

  async compare(aId: string, bId: string): Promise<EvalRunComparison> {
    const [a, b] = await Promise.all([this.findOne(aId), this.findOne(bId)]);
    for (const run of [a, b]) {
      if (run.status !== 'completed')
        throw new InvalidRequestError([`evaluation run ${run.id} is ${run.status}, not completed`]);
    }
    try {
      return compareEvalRuns(
        {
          id: a.id,
          bankId: a.bankId,
          datasetHash: a.datasetHash,
          metrics: a.metrics ?? {},
          perItem: a.perItem,
        },
        {
          id: b.id,
          bankId: b.bankId,
          datasetHash: b.datasetHash,
          metrics: b.metrics ?? {},
          perItem: b.perItem,
        },
      );
    } catch (error) {
      throw new InvalidRequestError([error instanceof Error ? error.message : String(error)]);
    }
  }

  /**
   * Expected documents and chunks that are gone from the bank's collection (deleted, or moved to another
   * collection): their items cannot be found by a search of it any more.
   */
  private async missingSources(
    sources: { documentId?: string; chunkId?: string }[],
    collectionId: string,
  ): Promise<Set<string>> {
    const documents = [...new Set(sources.flatMap((s) => (s.documentId ? [s.documentId] : [])))];
    const chunks = [...new Set(sources.flatMap((s) => (s.chunkId ? [s.chunkId] : [])))];
    const foundDocuments = await this.corpus.existingDocumentIds(documents, collectionId);
    const foundChunks = await this.corpus.documentsOfChunks(chunks, collectionId);
    return new Set([
      ...documents.filter((id) => !foundDocuments.has(id)),
      ...chunks.filter((id) => !foundChunks.has(id)),
    ]);
  }

  private usesLlm(settings: SearchSettings, ports: SearchPorts): boolean {
    return Boolean(
      (settings.enableQueryExpansion && ports.expander) ||
      (settings.enableHyDE && ports.hyde) ||
      (settings.enableRerank && ports.reranker),
    );
  }

  /** Who wrote expansions, HyDE passages and rerankings: 'prf' offline, else the model and its prompt version. */
  private promptVersions(settings: SearchSettings, ports: SearchPorts): Record<string, string | null> {
    return {
      queryExpansion: settings.enableQueryExpansion ? (ports.expander?.modelId ?? 'prf') : null,
      hyde: settings.enableHyDE ? (ports.hyde?.modelId ?? 'prf') : null,
      rerank: settings.enableRerank ? (ports.reranker?.modelId ?? 'none configured') : null,
    };
  }
}

function toSummary(run: EvalRunEntity): EvalRunSummary {
  return {
    id: run.id,
    bankId: run.bankId,
    status: run.status,
    settings: run.settings,
    embeddingModel: run.embeddingModel,
    chatModel: run.chatModel,
    datasetHash: run.datasetHash,
    itemCount: run.itemCount,
    metrics: run.metrics,
    error: run.error,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt ? run.startedAt.toISOString() : null,
    finishedAt: run.finishedAt ? run.finishedAt.toISOString() : null,
  };
}

function toRun(run: EvalRunEntity): EvalRun {
  return {
    ...toSummary(run),
    searchOptions: run.searchOptions,
    promptVersions: run.promptVersions,
    intervals: run.intervals,
    refusal: run.refusal,
    answers: run.answers ?? null,
    scoredItems: run.scoredItems,
    perItem: run.perItem ?? [],
    timings: run.timings,
    llmCalls: run.llmCalls,
    ablationId: run.ablationId,
  };
}

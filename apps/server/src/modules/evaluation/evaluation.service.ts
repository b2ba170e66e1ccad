import { InjectQueue } from '@nestjs/bullmq';
import { BadRequestException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { compareEvalRuns, evaluateBankItems, searchLlmCalls } from '@lumina/eval';
import { isEvidenceReranker, offlineAnswerOf, searchKnowledge } from '@lumina/rag';
import type { ChatModel, AnyReranker, SearchOptions, SearchPorts } from '@lumina/rag';
import { resolveSettings } from '@lumina/shared';
import type { EvalRun, EvalRunComparison, EvalRunSummary, Page, SearchSettings } from '@lumina/shared';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import type { FindOptionsSelect } from 'typeorm';
import { InjectConfig } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import { InjectSearchDataSource } from '../../database/database.module';
import { JobName, jobOptions } from '../../jobs/job-catalogue';
import { QueueName } from '../../jobs/queue-name.enum';
import type { CachedEmbedder } from '../../providers/cached-embedder';
import { InjectChatModel, InjectEmbedder, InjectReranker } from '../../providers/providers.module';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import { QuestionBankItemService } from '../question-bank/question-bank-item.service';
import { QuestionBankService } from '../question-bank/question-bank.service';
import { llmSearchPorts } from '../rag/llm-search-ports';
import { createSearchPorts } from '../rag/search-ports.factory';
import { EvalRunEntity } from './entities/eval-run.entity';

/** The job's run row is gone (its bank was deleted): the job can never succeed. */
export class EvalRunMissingError extends Error {}

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
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectConfig() private readonly env: Env,
    @InjectEmbedder() private readonly embedder: CachedEmbedder,
    @InjectQueue(QueueName.Evaluation) private readonly queue: Queue,
    private readonly banks: QuestionBankService,
    private readonly items: QuestionBankItemService,
    @InjectChatModel() private readonly chatModel: ChatModel | null,
    @InjectReranker() reranker: AnyReranker | null,
    @InjectSearchDataSource() searchDataSource: DataSource,
  ) {
    // Exactly the ports RagService searches with (POST /rag/search), LLM ports included when configured.
    const search = createSearchPorts(
      dataSource,
      env,
      embedder,
      llmSearchPorts(chatModel, reranker),
      searchDataSource,
    );
    this.ports = search.ports;
    this.options = search.options;
  }

  private get repository() {
    return this.dataSource.getRepository(EvalRunEntity);
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
      throw new BadRequestException([`question bank ${bankId} has no items to evaluate`]);
    return bank.itemCount;
  }

  /** Records queued runs, one per settings object, in order (an ablation's combinations, or one run). */
  async createRuns(
    bankId: string,
    itemCount: number,
    settings: SearchSettings[],
    ablationId: string | null,
  ): Promise<EvalRunEntity[]> {
    return this.repository.save(
      settings.map((runSettings) =>
        this.repository.create({
          bankId,
          ablationId,
          status: 'queued',
          settings: runSettings,
          searchOptions: { ...this.options },
          embeddingModel: this.embedder.modelId,
          chatModel: null,
          promptVersions: {},
          itemCount,
        }),
      ),
    );
  }

  /** What this server's searches can switch on: LLM-written (else PRF) expansion and HyDE, and a reranker. */
  capabilities(): { generator: 'llm' | 'prf'; rerankAvailable: boolean } {
    return {
      generator: this.ports.expander && this.ports.hyde ? 'llm' : 'prf',
      rerankAvailable: Boolean(this.ports.reranker),
    };
  }

  /** The job: run every item, store metrics and per-item results; a failure is stored on the run. */
  async execute(
    runId: string,
    onProgress: (fraction: number) => Promise<void> = async () => undefined,
  ): Promise<EvalRunSummary> {
    const run = await this.repository.findOneBy({ id: runId });
    if (!run) throw new EvalRunMissingError(`evaluation run ${runId} no longer exists`);
    run.status = 'running';
    run.startedAt = new Date();
    run.error = null;
    await this.repository.save(run);
    try {
      const items = await this.items.allItems(run.bankId);
      const missingIds = await this.missingSources(items.flatMap((item) => item.expectedSources));
      let lastReported = 0;
      const rerankerCallsModel = Boolean(this.ports.reranker && !isEvidenceReranker(this.ports.reranker));
      const evaluation = await evaluateBankItems({
        bankId: run.bankId,
        items,
        settings: run.settings,
        missingIds,
        concurrency: this.env.EVALUATION_CONCURRENCY,
        search: (question) => searchKnowledge(question, run.settings, this.ports, this.options),
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
        chatModel: this.usesLlm(run.settings) ? (this.chatModel?.modelId ?? null) : null,
        promptVersions: this.promptVersions(run.settings),
        finishedAt: new Date(),
      });
      await this.repository.save(run);
      return toSummary(run);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error({ msg: 'evaluation run failed', runId, error: message });
      await this.repository.update(
        { id: runId },
        { status: 'failed', error: message, finishedAt: new Date() },
      );
      throw error;
    }
  }

  async findAll(query: { page?: number; limit?: number; bankId?: string }): Promise<Page<EvalRunSummary>> {
    const window = pageWindow(query);
    if (query.bankId) await this.banks.assertExists(query.bankId);
    const [runs, total] = await this.repository.findAndCount({
      where: query.bankId ? { bankId: query.bankId } : {},
      select: SUMMARY_COLUMNS,
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: window.offset,
      take: window.limit,
    });
    return pageOf(runs.map(toSummary), total, window);
  }

  async findOne(id: string): Promise<EvalRun> {
    const run = await this.repository.findOneBy({ id });
    if (!run) throw new NotFoundException(`evaluation run ${id} not found`);
    return toRun(run);
  }

  async compare(aId: string, bId: string): Promise<EvalRunComparison> {
    const [a, b] = await Promise.all([this.findOne(aId), this.findOne(bId)]);
    for (const run of [a, b]) {
      if (run.status !== 'completed')
        throw new BadRequestException([`evaluation run ${run.id} is ${run.status}, not completed`]);
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
      throw new BadRequestException([error instanceof Error ? error.message : String(error)]);
    }
  }

  /** Expected documents and chunks that are gone: their items cannot be found any more. */
  private async missingSources(sources: { documentId?: string; chunkId?: string }[]): Promise<Set<string>> {
    const documents = [...new Set(sources.flatMap((s) => (s.documentId ? [s.documentId] : [])))];
    const chunks = [...new Set(sources.flatMap((s) => (s.chunkId ? [s.chunkId] : [])))];
    const missing = new Set<string>();
    if (documents.length) {
      const rows: { id: string }[] = await this.dataSource.query(
        `SELECT id FROM documents WHERE id = ANY($1::uuid[])`,
        [documents],
      );
      const found = new Set(rows.map((row) => row.id));
      for (const id of documents) if (!found.has(id)) missing.add(id);
    }
    if (chunks.length) {
      const rows: { id: string }[] = await this.dataSource.query(
        `SELECT id FROM chunks WHERE id = ANY($1::uuid[])`,
        [chunks],
      );
      const found = new Set(rows.map((row) => row.id));
      for (const id of chunks) if (!found.has(id)) missing.add(id);
    }
    return missing;
  }

  private usesLlm(settings: SearchSettings): boolean {
    return Boolean(
      (settings.enableQueryExpansion && this.ports.expander) ||
      (settings.enableHyDE && this.ports.hyde) ||
      (settings.enableRerank && this.ports.reranker),
    );
  }

  /** Who wrote expansions, HyDE passages and rerankings: 'prf' offline, else the model and its prompt version. */
  private promptVersions(settings: SearchSettings): Record<string, string | null> {
    return {
      queryExpansion: settings.enableQueryExpansion ? (this.ports.expander?.modelId ?? 'prf') : null,
      hyde: settings.enableHyDE ? (this.ports.hyde?.modelId ?? 'prf') : null,
      rerank: settings.enableRerank ? (this.ports.reranker?.modelId ?? 'none configured') : null,
    };
  }
}

/** A run without its bulky per-item results. */
const SUMMARY_COLUMNS: FindOptionsSelect<EvalRunEntity> = {
  id: true,
  bankId: true,
  status: true,
  settings: true,
  embeddingModel: true,
  chatModel: true,
  datasetHash: true,
  itemCount: true,
  metrics: true,
  error: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
};

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

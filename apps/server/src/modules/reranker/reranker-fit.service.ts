import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { bankRankingSample, compareConfigured, defaultFitSpec, fitOnBank, mapPool } from '@lumina/eval';
import type { BankFit, JudgedRankingSample, RecordedCandidates } from '@lumina/eval';
import { LtrFeatureRecorder, isEvidenceReranker, searchKnowledge, withDeadline } from '@lumina/rag';
import type { EmbeddingProvider, Reranker, SearchOptions, SearchPorts } from '@lumina/rag';
import type { RerankerMeasurement } from '@lumina/shared';
import { DataSource } from 'typeorm';
import { InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';
import { InjectConfig } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import { InjectSearchDataSource } from '../../database/database.module';
import { InjectEmbedder } from '../../providers/providers.module';
import { QuestionBankItemService } from '../question-bank/question-bank-item.service';
import { createSearchPorts } from '../rag/search-ports.factory';
import { RerankerModelRepository } from './repositories/reranker-model.repository';
import { RerankerRegistry } from './reranker-registry.service';
import { digestOf } from './reranker-model.service';

/** The job's model row is gone (deleted while queued): the job can never succeed. */
export class RerankerModelMissingError extends NotFoundError {}

/** A question and what the feature recorder kept of its candidates. */
interface Asked {
  itemId: string;
  question: string;
  recorded: RecordedCandidates | undefined;
}

/**
 * The fitting job: every in-scope question of the bank is searched as the app searches (BM25, the
 * original query, the server's candidateK), the learned reranker's features of its candidates are read
 * from the index (the query's cosine too, since the server embeds), and the model is fitted and measured
 * on the bank (libs/eval's fitOnBank). When a /v1/rerank endpoint or the LLM is configured, it reranks the
 * same candidates, so the bank says which of the two serves `enableRerank`.
 */
@Injectable()
export class RerankerFitService {
  private readonly logger = new Logger(RerankerFitService.name);
  private readonly ports: SearchPorts;
  private readonly options: Partial<SearchOptions>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    @InjectConfig() private readonly env: Env,
    @InjectEmbedder() embedder: EmbeddingProvider,
    @InjectSearchDataSource() searchDataSource: DataSource,
    private readonly models: RerankerModelRepository,
    private readonly items: QuestionBankItemService,
    private readonly registry: RerankerRegistry,
  ) {
    // The API's chunk search and embedder, without LLM ports: the features are read on the original query.
    const search = createSearchPorts(dataSource, env, embedder, {}, searchDataSource);
    this.ports = search.ports;
    this.options = search.options;
  }

  async execute(
    modelId: string,
    onProgress: (fraction: number) => Promise<void> = async () => undefined,
  ): Promise<void> {
    const row = await this.models.findById(modelId);
    if (!row) throw new RerankerModelMissingError(`reranker ${modelId} no longer exists`);
    if (row.status === 'ready') return;
    await this.models.update(modelId, { status: 'fitting', startedAt: new Date(), error: null });
    try {
      if (!row.bankId)
        throw new InvalidRequestError(`the question bank of reranker ${row.version} was deleted`);
      const items = (await this.items.allItems(row.bankId)).filter((item) => item.inScope);
      let done = 0;
      const asked = await mapPool(items, this.env.EVALUATION_CONCURRENCY, async (item): Promise<Asked> => {
        const recorded = await this.record(item.question, row.candidateK);
        done++;
        if (done % 10 === 0 || done === items.length)
          void onProgress((0.8 * done) / items.length).catch(() => undefined);
        return { itemId: item.id, question: item.question, recorded };
      });
      const samples = items.flatMap((item, i) => {
        const sample = bankRankingSample(
          { id: item.id, question: item.question, inScope: true, expectedSources: item.expectedSources },
          asked[i].recorded,
        );
        return sample ? [sample] : [];
      });
      const spec = defaultFitSpec(
        {
          version: row.version,
          source: `bank:${row.bankName ?? row.bankId}`,
          candidateDepth: row.candidateK,
          notes: { bankId: row.bankId, embedder: this.ports.embedder.modelId, questions: items.length },
        },
        row.learner,
      );
      let fit: BankFit;
      try {
        fit = fitOnBank(samples, spec);
      } catch (error) {
        // Too few questions the search can move: a retry cannot help.
        throw new InvalidRequestError(error instanceof Error ? error.message : String(error));
      }
      await onProgress(0.85);
      const measurement = await this.againstConfigured(fit, asked);
      const worse = measurement.ndcgAfter < measurement.ndcgBefore;
      const note =
        row.activateWhenReady && worse
          ? `Not switched on: on its bank it reranked worse than the search's own order ` +
            `(nDCG@10 ${measurement.ndcgAfter.toFixed(3)} against ${measurement.ndcgBefore.toFixed(3)}).`
          : null;
      const activate = row.activateWhenReady && !worse;
      await this.models.finish(
        modelId,
        { model: fit.model, summary: digestOf(fit.model), measurement, note, finishedAt: new Date() },
        activate,
      );
      if (activate) await this.registry.refresh();
      this.logger.log({ msg: 'reranker fitted', version: row.version, measurement });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error({ msg: 'reranker fit failed', modelId, error: message });
      await this.models.update(modelId, { status: 'failed', error: message, finishedAt: new Date() });
      throw error;
    }
  }

  /** One question searched as the app searches, its candidates' features recorded. */
  private async record(question: string, candidateK: number): Promise<RecordedCandidates | undefined> {
    const recorder = new LtrFeatureRecorder({ dense: true });
    const settings = {
      ranker: 'bm25' as const,
      enableQueryExpansion: false,
      enableHyDE: false,
      enableRerank: true,
      candidateK,
      topK: candidateK,
    };
    const result = await searchKnowledge(
      question,
      settings,
      { ...this.ports, reranker: recorder },
      this.options,
    );
    const failed = result.warnings.find((w) => /^Rerank/.test(w) && !/similarity/.test(w));
    if (failed) throw new Error(`reading the features of "${question}" failed: ${failed}`);
    return recorder.recorded[0];
  }

  /**
   * With a configured reranker that reads texts (an endpoint or the LLM), its order of the same candidates
   * (a failed call keeps the search's order, as a search would), compared with the learned model's.
   */
  private async againstConfigured(fit: BankFit, asked: Asked[]): Promise<RerankerMeasurement> {
    const configured = this.registry.configuredReranker();
    if (!configured || isEvidenceReranker(configured) || !this.registry.configuredCallsModel())
      return fit.measurement;
    const byItem = new Map(asked.map((a) => [a.itemId, a]));
    let calls = 0;
    const orders = await mapPool(fit.samples, this.env.EVALUATION_CONCURRENCY, async (sample) => {
      const { question, recorded } = byItem.get(sample.queryId)!;
      calls++;
      return this.configuredOrder(configured, question, recorded?.chunkIds ?? [], sample);
    });
    return compareConfigured(fit, { model: configured.modelId, orders, calls });
  }

  private async configuredOrder(
    reranker: Reranker,
    question: string,
    chunkIds: string[],
    sample: JudgedRankingSample,
  ): Promise<number[]> {
    const searchOrder = sample.rows.map((_, i) => i);
    try {
      const records = new Map((await this.ports.chunks.fetch(chunkIds)).map((r) => [r.chunkId, r.text]));
      const scores = await withDeadline('rerank', this.env.LLM_TIMEOUT_MS, (signal) =>
        reranker.rerank(
          question,
          chunkIds.map((id) => records.get(id) ?? ''),
          signal,
        ),
      );
      if (scores.length !== chunkIds.length || scores.some((s) => !Number.isFinite(s))) return searchOrder;
      return searchOrder.sort((a, b) => scores[b] - scores[a] || a - b);
    } catch {
      return searchOrder;
    }
  }
}

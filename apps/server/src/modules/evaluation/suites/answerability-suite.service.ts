import { Injectable } from '@nestjs/common';
import { answerMetrics, answerSupported, checkCitations, medianMs } from '@lumina/eval';
import type { AnswerabilityItemResult, AnswerabilitySourceRun } from '@lumina/eval';
import type { AnswerabilityModel, ChunkingSettings, ExtractiveOptions } from '@lumina/rag';
import type { AnswerabilitySource } from '@lumina/eval';
import { offlineAnswerOf } from '@lumina/rag';
import { BeirCorpusIndexer } from '../../ingestion/beir-corpus-indexer.service';
import { EvalSearchFactory } from '../../rag/eval-search.factory';
import type { SearchSettings } from '@lumina/shared';
import { searchReadsVectors } from './search-reads-vectors';
import type { SuiteProgress } from './suite-progress';

/**
 * The answerability suite on one source: index it (reusing what the database holds) and ask every
 * question the way the chat does at default settings (or `settings` over them): the app's search with
 * `model` deciding (null: the app's models, per ranker and embedder), then the offline answer.
 */
@Injectable()
export class AnswerabilitySuite {
  constructor(
    private readonly indexer: BeirCorpusIndexer,
    private readonly searches: EvalSearchFactory,
  ) {}

  async run(
    source: AnswerabilitySource,
    chunking: ChunkingSettings,
    model: AnswerabilityModel | null,
    progress: SuiteProgress,
    extractive: Partial<ExtractiveOptions> = {},
    settings: Partial<SearchSettings> = {},
  ): Promise<AnswerabilitySourceRun> {
    const search = this.searches.create(
      model ? { answerabilityModel: model, answerabilityModelsByRanker: {} } : {},
    );
    const versions = new Set<string>();
    const embedder = searchReadsVectors(settings) ? search.embedder : null;
    await this.indexer.index(source, source.name, chunking, embedder, progress.stage, source.format);
    const items: AnswerabilityItemResult[] = [];
    const searchMs: number[] = [];
    const answerMs: number[] = [];
    const report = progress.stage(`asking ${source.name}`);
    for (const question of source.questions) {
      const t0 = performance.now();
      const result = await search.search(question.text, settings);
      searchMs.push(performance.now() - t0);
      if (result.answerability) versions.add(result.answerability.modelVersion);
      // The chat's own path: a search that refuses writes no answer, only the not-found sentence.
      const answer = await offlineAnswerOf(question.text, result, search.embedder, extractive);
      const refused = answer.notFound;
      answerMs.push(performance.now() - t0);
      const externalOf = new Map(
        result.results.map((hit) => [hit.chunkId, hit.externalId ?? hit.documentId]),
      );
      const textOf = new Map(result.results.map((hit) => [hit.chunkId, hit.text]));
      items.push({
        id: question.id,
        question: question.text,
        inScope: question.inScope,
        refused,
        score: result.answerability?.score ?? null,
        features: result.answerability?.features ?? {},
        supported:
          question.inScope && !refused && question.gold.length > 0
            ? answerSupported({
                citedChunkIds: [],
                citedDocumentIds: answer.citations.map((c) => externalOf.get(c.chunkId) ?? c.documentId),
                goldIds: new Set(question.gold),
                answer: answer.text,
                goldQuote: question.quote,
              })
            : null,
        answer: refused ? null : answer.text,
        citations: refused ? null : checkCitations(answer.text, answer.citations, (id) => textOf.get(id)),
      });
      report(items.length, source.questions.length);
    }
    const modelVersion = model?.version ?? ([...versions].join(' + ') || 'none');
    return {
      source: source.name,
      modelVersion,
      metrics: answerMetrics(items, modelVersion, 'extractive'),
      timings: { searchP50: medianMs(searchMs), answerP50: medianMs(answerMs) },
      items,
    };
  }
}

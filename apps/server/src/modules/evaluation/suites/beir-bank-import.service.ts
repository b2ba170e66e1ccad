import { Injectable } from '@nestjs/common';
import type { BeirDataset } from '@lumina/eval';
import type { ChunkingSettings, EmbeddingProvider } from '@lumina/rag';
import type { ImportReport } from '@lumina/shared';
import { BeirCorpusIndexer } from '../../ingestion/beir-corpus-indexer.service';
import type { BeirIndexOutcome, StageProgress } from '../../ingestion/beir-corpus-indexer.service';
import { QuestionBankService } from '../../question-bank/question-bank.service';
import { QuestionImportService } from '../../question-bank/question-import.service';

export interface BeirBankImportInput {
  dataset: BeirDataset;
  /** The dataset's name: documents are tagged with it and external ids are resolved within it. */
  datasetName: string;
  bankName: string;
  chunking: ChunkingSettings;
  /** Give chunks vectors too (needed by the dense and hybrid rankers); null indexes for BM25 only. */
  embedder: EmbeddingProvider | null;
  onProgress: StageProgress;
}

export interface BeirBankImportOutcome {
  bankId: string;
  index: BeirIndexOutcome;
  report: ImportReport;
}

/**
 * A BEIR split into the app: the corpus as documents (external id = corpus id), indexed by the eval
 * command's own indexing code, and the split's judged queries as a question bank whose items cite
 * those documents. Evaluating the bank then scores what the eval command scores.
 */
@Injectable()
export class BeirBankImport {
  constructor(
    private readonly indexer: BeirCorpusIndexer,
    private readonly banks: QuestionBankService,
    private readonly imports: QuestionImportService,
  ) {}

  async importAsBank(input: BeirBankImportInput): Promise<BeirBankImportOutcome> {
    const index = await this.indexer.index(
      input.dataset,
      input.datasetName,
      input.chunking,
      input.embedder,
      input.onProgress,
    );
    const bank = await this.banks.create({
      name: input.bankName,
      description:
        `BEIR ${input.datasetName} (${input.dataset.split} split): ${input.dataset.qrels.size} judged queries ` +
        `over ${input.dataset.corpus.size} documents`,
      tags: ['beir', input.datasetName, input.dataset.split],
    });
    const report = await this.imports.importBeirDataset(bank.id, {
      queries: input.dataset.queries,
      qrels: input.dataset.qrels,
      dataset: input.datasetName,
    });
    return { bankId: bank.id, index, report };
  }
}

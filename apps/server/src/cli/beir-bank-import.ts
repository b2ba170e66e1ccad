import type { BeirDataset } from '@lumina/eval';
import type { ChunkingSettings } from '@lumina/rag';
import type { ImportReport } from '@lumina/shared';
import type { DataSource } from 'typeorm';
import { ExpectedSourceResolver } from '../modules/question-bank/expected-source-resolver';
import { QuestionBankItemService } from '../modules/question-bank/question-bank-item.service';
import { QuestionBankService } from '../modules/question-bank/question-bank.service';
import { QuestionImportService } from '../modules/question-bank/question-import.service';
import { QuestionTemplateService } from '../modules/question-bank/question-template.service';
import { CorpusRepository } from '../modules/question-bank/repositories/corpus.repository';
import { QuestionBankItemRepository } from '../modules/question-bank/repositories/question-bank-item.repository';
import { QuestionBankRepository } from '../modules/question-bank/repositories/question-bank.repository';
import { QuestionTemplateRepository } from '../modules/question-bank/repositories/question-template.repository';
import type { CachedEmbedder } from '../providers/cached-embedder';
import { indexBeirCorpus } from './beir-index';
import type { BeirIndexOutcome } from './beir-index';

export interface BeirBankImportInput {
  dataset: BeirDataset;
  /** The dataset's name: documents are tagged with it and external ids are resolved within it. */
  datasetName: string;
  bankName: string;
  chunking: ChunkingSettings;
  /** Give chunks vectors too (needed by the dense and hybrid rankers); null indexes for BM25 only. */
  embedder: CachedEmbedder | null;
  onProgress: (stage: string) => (done: number, total: number) => void;
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
export async function importBeirAsBank(
  dataSource: DataSource,
  input: BeirBankImportInput,
): Promise<BeirBankImportOutcome> {
  const index = await indexBeirCorpus(
    dataSource,
    input.dataset,
    input.datasetName,
    input.chunking,
    input.embedder,
    input.onProgress,
  );
  const { manager } = dataSource;
  const sources = new ExpectedSourceResolver(new CorpusRepository(manager));
  const templates = new QuestionTemplateService(new QuestionTemplateRepository(manager));
  const banks = new QuestionBankService(new QuestionBankRepository(manager), templates);
  const items = new QuestionBankItemService(new QuestionBankItemRepository(manager), banks, sources);
  const bank = await banks.create({
    name: input.bankName,
    description:
      `BEIR ${input.datasetName} (${input.dataset.split} split): ${input.dataset.qrels.size} judged queries ` +
      `over ${input.dataset.corpus.size} documents`,
    tags: ['beir', input.datasetName, input.dataset.split],
  });
  const report = await new QuestionImportService(items, sources).importBeirDataset(bank.id, {
    queries: input.dataset.queries,
    qrels: input.dataset.qrels,
    dataset: input.datasetName,
  });
  return { bankId: bank.id, index, report };
}

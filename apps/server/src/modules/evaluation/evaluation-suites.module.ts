import { Module } from '@nestjs/common';
import { IngestionIndexingModule } from '../ingestion/ingestion-indexing.module';
import { QuestionBankCoreModule } from '../question-bank/question-bank-core.module';
import { EvalSearchFactory } from '../rag/eval-search.factory';
import { AdaptiveExpansionSuite } from './suites/adaptive-expansion-suite.service';
import { AnswerabilitySuite } from './suites/answerability-suite.service';
import { AnswersSuite } from './suites/answers-suite.service';
import { ConversationSuite } from './suites/conversation-suite.service';
import { BeirBankImport } from './suites/beir-bank-import.service';
import { RerankFeatureReader } from './suites/rerank-features.service';
import { RetrievalGate } from './suites/retrieval-gate.service';
import { RetrievalSuite } from './suites/retrieval-suite.service';

const SUITES = [
  RetrievalSuite,
  AnswersSuite,
  AnswerabilitySuite,
  ConversationSuite,
  RerankFeatureReader,
  RetrievalGate,
  AdaptiveExpansionSuite,
  BeirBankImport,
  EvalSearchFactory,
];

/**
 * The evaluation suites of the command-line tools (retrieval, answers, answerability, the learned
 * reranker's features, the retrieval gate, adaptive expansion) and the import of a BEIR dataset as a
 * question bank: each indexes a dataset with the app's code and searches it with the app's search.
 */
@Module({
  imports: [IngestionIndexingModule, QuestionBankCoreModule],
  providers: SUITES,
  exports: [...SUITES, IngestionIndexingModule],
})
export class EvaluationSuitesModule {}

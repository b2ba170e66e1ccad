import type { MigrationInterface } from 'typeorm';
import type { EmbeddingStorage } from '../pgvector';
import { createInitialSchemaMigration } from './1764500000000-initial-schema';
import { Bm25Index1764500000100 } from './1764500000100-bm25-index';
import { EmbeddingCache1764500000200 } from './1764500000200-embedding-cache';
import { Chat1764500002000 } from './1764500002000-chat';
import { QuestionBanks1764500003000 } from './1764500003000-question-banks';
import { createEmbeddingStorageMigration } from './1764500004000-embedding-storage';
import { ApiKeys1764500005000 } from './1764500005000-api-keys';
import { Bm25PostingsLength1764500006000 } from './1764500006000-bm25-postings-length';
import { Bm25WriterSlots1764500010000 } from './1764500010000-bm25-writer-slots';
import { LanguageAnalysis1764500020000 } from './1764500020000-language-analysis';
import { ChunkPages1764500030000 } from './1764500030000-chunk-pages';
import { Answerability1764500040000 } from './1764500040000-answerability';
import { ChunkAnalysisOnce1764500050000 } from './1764500050000-chunk-analysis-once';
import { AdaptiveExpansion1764500060000 } from './1764500060000-adaptive-expansion';
import { Ablations1764500070000 } from './1764500070000-ablations';
import { RerankerModels1764500080000 } from './1764500080000-reranker-models';
import { FollowUpReason1764500090000 } from './1764500090000-follow-up-reason';
import { CleanDocumentTitles1764500091000 } from './1764500091000-clean-document-titles';
import { ConversationSearch1764500097000 } from './1764500097000-conversation-search';
import { LanguageAnalysisMeasured1764500098000 } from './1764500098000-language-analysis-measured';
import { FollowUpAloneLeads1764500110000 } from './1764500110000-follow-up-alone-leads';
import { CleanHeadingPaths1764500130000 } from './1764500130000-clean-heading-paths';
import { Collections1764500140000 } from './1764500140000-collections';
import { KeyGrants1764500150000 } from './1764500150000-key-grants';
import { RerankerPerCollection1764500160000 } from './1764500160000-reranker-per-collection';
import { Feedback1764500170000 } from './1764500170000-feedback';
import { Bm25TermBounds1764500180000 } from './1764500180000-bm25-term-bounds';
import { Sources1764500190000 } from './1764500190000-sources';
import { EmbedderState1764500200000 } from './1764500200000-embedder-state';
import { Bm25PostingsCovering1764500210000 } from './1764500210000-bm25-postings-covering';

/**
 * Every migration in order. The chunk vector dimension comes from the configured embedder, the vector
 * storage type (vector/halfvec) from EMBEDDING_STORAGE.
 */
export function allMigrations(
  embeddingDimension: number,
  embeddingStorage: EmbeddingStorage,
): (new () => MigrationInterface)[] {
  return [
    createInitialSchemaMigration(embeddingDimension),
    Bm25Index1764500000100,
    EmbeddingCache1764500000200,
    Chat1764500002000,
    QuestionBanks1764500003000,
    createEmbeddingStorageMigration(embeddingDimension, embeddingStorage),
    ApiKeys1764500005000,
    Bm25PostingsLength1764500006000,
    Bm25WriterSlots1764500010000,
    LanguageAnalysis1764500020000,
    ChunkPages1764500030000,
    Answerability1764500040000,
    ChunkAnalysisOnce1764500050000,
    AdaptiveExpansion1764500060000,
    Ablations1764500070000,
    RerankerModels1764500080000,
    FollowUpReason1764500090000,
    CleanDocumentTitles1764500091000,
    ConversationSearch1764500097000,
    LanguageAnalysisMeasured1764500098000,
    FollowUpAloneLeads1764500110000,
    CleanHeadingPaths1764500130000,
    Collections1764500140000,
    KeyGrants1764500150000,
    RerankerPerCollection1764500160000,
    Feedback1764500170000,
    Bm25TermBounds1764500180000,
    Sources1764500190000,
    EmbedderState1764500200000,
    Bm25PostingsCovering1764500210000,
  ];
}

import { Module } from '@nestjs/common';
import { BeirCorpusIndexer } from './beir-corpus-indexer.service';
import { BeirCorpusRepository } from './repositories/beir-corpus.repository';

/** Indexing of whole datasets into the database, without queues: for the command-line tools. */
@Module({
  providers: [BeirCorpusRepository, BeirCorpusIndexer],
  exports: [BeirCorpusIndexer],
})
export class IngestionIndexingModule {}

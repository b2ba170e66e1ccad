import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../../config/app-config';
import { BeirBankImport } from '../../modules/evaluation/suites/beir-bank-import.service';
import { BeirCorpusIndexer } from '../../modules/ingestion/beir-corpus-indexer.service';
import { BeirCorpusRepository } from '../../modules/ingestion/repositories/beir-corpus.repository';
import { QuestionBankService } from '../../modules/question-bank/question-bank.service';
import { QuestionImportService } from '../../modules/question-bank/question-import.service';

/**
 * The command-line import of a BEIR dataset as a question bank, over a test app's database and question-bank
 * services (the HTTP app does not carry the command-line suites).
 */
export function beirBankImport(app: INestApplication): BeirBankImport {
  const dataSource = app.get(DataSource);
  return new BeirBankImport(
    new BeirCorpusIndexer(new BeirCorpusRepository(dataSource), dataSource, app.get(APP_CONFIG)),
    app.get(QuestionBankService, { strict: false }),
    app.get(QuestionImportService, { strict: false }),
  );
}

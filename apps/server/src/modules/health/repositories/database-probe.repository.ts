import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { corpusLanguageCounts } from '../../rag/repositories/text-search-configs';

/** The health check's question to the database: does it answer at all? */
@Injectable()
export class DatabaseProbeRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  async ping(): Promise<void> {
    await this.manager.query('SELECT 1');
  }

  /** How many documents hold each language. */
  languageCounts(): Promise<Record<string, number>> {
    return corpusLanguageCounts(this.manager.connection);
  }
}

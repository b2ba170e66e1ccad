import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { EMBEDDER_STATE_SQL } from '../../../database/embedder-switch.sql';
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

  /** The re-embedding after a switch of embedder, while one is pending (embedder_state). */
  async reembedding(model: string): Promise<{ done: number; total: number } | null> {
    const rows: {
      model: string | null;
      reembedPending: boolean;
      reembedDone: number;
      reembedTotal: number;
    }[] = await this.manager.query(EMBEDDER_STATE_SQL);
    const state = rows[0];
    if (!state?.reembedPending || state.model !== model) return null;
    return { done: state.reembedDone, total: state.reembedTotal };
  }
}

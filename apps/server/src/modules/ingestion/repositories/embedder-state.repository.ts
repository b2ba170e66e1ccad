import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import {
  EMBEDDER_STATE_SQL,
  REEMBED_FINISHED_SQL,
  REEMBED_PROGRESS_SQL,
} from '../../../database/embedder-switch.sql';

/** The embedder the chunks' vectors come from, and the re-embed after a switch (embedder_state). */
export interface EmbedderState {
  model: string | null;
  reembedPending: boolean;
  reembedDone: number;
  reembedTotal: number;
  changedAt: Date;
}

@Injectable()
export class EmbedderStateRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  /** Null before the state's migration ran. */
  async read(): Promise<EmbedderState | null> {
    const rows: EmbedderState[] = await this.manager.query(EMBEDDER_STATE_SQL);
    return rows[0] ?? null;
  }

  /** The re-embedding of `model`'s vectors while one is pending after a switch; null otherwise. */
  async reembedding(model: string): Promise<{ done: number; total: number } | null> {
    const state = await this.read();
    if (!state?.reembedPending || state.model !== model) return null;
    return { done: state.reembedDone, total: state.reembedTotal };
  }

  async progress(model: string, done: number, total: number): Promise<void> {
    await this.manager.query(REEMBED_PROGRESS_SQL, [model, done, total]);
  }

  async finished(model: string): Promise<void> {
    await this.manager.query(REEMBED_FINISHED_SQL, [model]);
  }
}

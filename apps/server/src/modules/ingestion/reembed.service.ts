import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InjectConfig } from '../../config/app-config';
import type { Env } from '../../config/env.schema';
import type { CachedEmbedder } from '../../providers/cached-embedder';
import { InjectEmbedder } from '../../providers/providers.module';
import { backfillEmbeddings } from './embedding-backfill';
import { PermanentFailureError } from './errors/permanent-failure.error';
import type { JobAttempt } from './ingestion-progress';
import { EmbedderStateRepository } from './repositories/embedder-state.repository';

/** How often the job writes its progress where /health reads it. */
const PROGRESS_EVERY_MS = 1_000;

export interface ReembedOutcome {
  model: string;
  /** Chunks that lacked a vector of the model and got one. */
  chunks: number;
  /** Vectors this process computed meanwhile (the rest came from the embedding cache). */
  computed: number;
}

/** The re-embed job: vectors of the current model for every chunk that lacks one. */
@Injectable()
export class ReembedService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectEmbedder() private readonly embedder: CachedEmbedder,
    @InjectConfig() private readonly env: Env,
    private readonly state: EmbedderStateRepository,
  ) {}

  async reembed(model: string, attempt: JobAttempt): Promise<ReembedOutcome> {
    if (model !== this.embedder.modelId) {
      throw new PermanentFailureError(
        `This re-embed was asked for the model "${model}" but the worker embeds with "${this.embedder.modelId}"; ` +
          'start it again once every process runs the same embedding configuration.',
      );
    }
    const computedBefore = this.embedder.stats.computed;
    let written = 0;
    const chunks = await backfillEmbeddings(
      this.dataSource,
      this.embedder,
      async (done, total) => {
        await attempt.report({ stage: 'embedding', done, total });
        if (Date.now() - written >= PROGRESS_EVERY_MS || done === total) {
          written = Date.now();
          await this.state.progress(model, done, total);
        }
      },
      this.env.EMBEDDINGS_BATCH_SIZE,
    );
    // Every chunk that lacked a vector has one (chunks written meanwhile got theirs on ingestion).
    await this.state.finished(model);
    return { model, chunks, computed: this.embedder.stats.computed - computedBefore };
  }
}

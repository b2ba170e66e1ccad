import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager, In } from 'typeorm';
import type { FindOptionsSelect } from 'typeorm';
import { EvalRunEntity } from '../entities/eval-run.entity';

/** A run without its bulky per-item results. */
const SUMMARY_COLUMNS: FindOptionsSelect<EvalRunEntity> = {
  id: true,
  bankId: true,
  status: true,
  settings: true,
  embeddingModel: true,
  chatModel: true,
  datasetHash: true,
  itemCount: true,
  metrics: true,
  error: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
};

export type NewEvalRun = Pick<
  EvalRunEntity,
  | 'bankId'
  | 'ablationId'
  | 'status'
  | 'settings'
  | 'searchOptions'
  | 'embeddingModel'
  | 'chatModel'
  | 'promptVersions'
  | 'itemCount'
>;

/** The evaluation runs table. */
@Injectable()
export class EvalRunRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  private get runs() {
    return this.manager.getRepository(EvalRunEntity);
  }

  /** Stores the runs in order; returns them as stored. */
  insert(runs: NewEvalRun[]): Promise<EvalRunEntity[]> {
    return this.runs.save(runs.map((run) => this.runs.create(run)));
  }

  findById(id: string): Promise<EvalRunEntity | null> {
    return this.runs.findOneBy({ id });
  }

  save(run: EvalRunEntity): Promise<EvalRunEntity> {
    return this.runs.save(run);
  }

  async markFailed(id: string, error: string, finishedAt: Date): Promise<void> {
    await this.runs.update({ id }, { status: 'failed', error, finishedAt });
  }

  /**
   * Runs (of a bank, or all) as summaries, newest first, and how many there are; `collectionIds`: only
   * runs of banks in these collections (null: of every collection).
   */
  summaries(
    bankId: string | undefined,
    collectionIds: readonly string[] | null,
    offset: number,
    limit: number,
  ): Promise<[EvalRunEntity[], number]> {
    return this.runs.findAndCount({
      where: {
        ...(bankId ? { bankId } : {}),
        ...(collectionIds ? { bank: { collectionId: In([...collectionIds]) } } : {}),
      },
      select: SUMMARY_COLUMNS,
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: offset,
      take: limit,
    });
  }
}

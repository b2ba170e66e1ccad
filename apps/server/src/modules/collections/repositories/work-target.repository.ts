import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { WORK_TARGET_COLLECTION_SQL } from './work-targets.sql';

/** What a collection's evaluation work is made of: banks, their runs and ablations, fitted rerankers. */
export type WorkTarget = keyof typeof WORK_TARGET_COLLECTION_SQL;

/** Which collection a bank, run, ablation or reranker belongs to. */
@Injectable()
export class WorkTargetRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  /** The collection of `target` `id`; null when it does not exist. */
  async collectionOf(target: WorkTarget, id: string): Promise<string | null> {
    const rows: { collection_id: string }[] = await this.manager.query(WORK_TARGET_COLLECTION_SQL[target], [
      id,
    ]);
    return rows[0]?.collection_id ?? null;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager, In } from 'typeorm';
import type { FindOptionsSelect } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { RerankerModelEntity } from '../entities/reranker-model.entity';

/** Everything but the model itself (a few kilobytes of weights or trees). */
const SUMMARY_COLUMNS: FindOptionsSelect<RerankerModelEntity> = {
  id: true,
  version: true,
  bankId: true,
  bankName: true,
  collectionId: true,
  status: true,
  learner: true,
  candidateK: true,
  activateWhenReady: true,
  active: true,
  summary: true,
  measurement: true,
  error: true,
  note: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
};

export type NewRerankerModel = Pick<
  RerankerModelEntity,
  'version' | 'bankId' | 'bankName' | 'collectionId' | 'learner' | 'candidateK' | 'activateWhenReady'
>;

/** An active model without the model itself. */
export type ActiveModelHead = Pick<RerankerModelEntity, 'id' | 'collectionId' | 'measurement'>;

/** The fitted rerankers table. */
@Injectable()
export class RerankerModelRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  private get models() {
    return this.manager.getRepository(RerankerModelEntity);
  }

  insert(values: NewRerankerModel): Promise<RerankerModelEntity> {
    return this.models.save(this.models.create({ ...values, status: 'queued' }));
  }

  /** A model row, with the model itself. */
  findById(id: string): Promise<RerankerModelEntity | null> {
    return this.models.findOneBy({ id });
  }

  /** How many models were ever fitted on the bank (for the next version's number). */
  countForBank(bankId: string): Promise<number> {
    return this.models.countBy({ bankId });
  }

  versionTaken(version: string): Promise<boolean> {
    return this.models.existsBy({ version });
  }

  /** A page of models without the model itself, newest first, optionally of one bank. */
  /** `collectionIds`: only models of these collections (null: of every collection). */
  summaries(
    bankId: string | undefined,
    collectionIds: readonly string[] | null,
    offset: number,
    limit: number,
  ): Promise<[RerankerModelEntity[], number]> {
    return this.models.findAndCount({
      where: {
        ...(bankId ? { bankId } : {}),
        ...(collectionIds ? { collectionId: In([...collectionIds]) } : {}),
      },
      select: SUMMARY_COLUMNS,
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: offset,
      take: limit,
    });
  }

  /** Each collection's active model: id, collection and measurement, without the model itself. */
  findActiveHeads(): Promise<ActiveModelHead[]> {
    return this.models.find({
      where: { active: true },
      select: { id: true, collectionId: true, measurement: true },
    });
  }

  /** Every collection's id (which collections a search of everything reads). */
  async collectionIds(): Promise<string[]> {
    const rows: { id: string }[] = await this.manager.query(`SELECT id FROM collections`);
    return rows.map((row) => row.id);
  }

  update(
    id: string,
    values: Partial<
      Pick<
        RerankerModelEntity,
        'status' | 'model' | 'summary' | 'measurement' | 'error' | 'note' | 'startedAt' | 'finishedAt'
      >
    >,
  ): Promise<unknown> {
    // TypeORM's deep-partial type does not follow the jsonb columns' types; the values are whole columns.
    return this.models.update({ id }, values as QueryDeepPartialEntity<RerankerModelEntity>);
  }

  /** Stores the finished fit and, when asked, makes it its collection's one active model, in one
   *  transaction (a reader never sees it ready but not yet switched on). */
  async finish(
    id: string,
    values: Pick<RerankerModelEntity, 'model' | 'summary' | 'measurement' | 'note' | 'finishedAt'>,
    activate: boolean,
  ): Promise<void> {
    await this.manager.transaction(async (manager) => {
      const models = manager.getRepository(RerankerModelEntity);
      if (activate) {
        const row = await models.findOneOrFail({ where: { id }, select: { collectionId: true } });
        await models.update({ active: true, collectionId: row.collectionId }, { active: false });
      }
      await models.update({ id }, {
        ...values,
        status: 'ready',
        active: activate,
      } as QueryDeepPartialEntity<RerankerModelEntity>);
    });
  }

  /** Makes `id` the one active model of collection `collectionId`, in one transaction. */
  async activate(id: string, collectionId: string): Promise<void> {
    await this.manager.transaction(async (manager) => {
      const models = manager.getRepository(RerankerModelEntity);
      await models.update({ active: true, collectionId }, { active: false });
      await models.update({ id }, { active: true });
    });
  }

  /** Switches `id` off (its collection then has no active model). */
  async deactivate(id: string): Promise<void> {
    await this.models.update({ id }, { active: false });
  }

  async remove(id: string): Promise<void> {
    await this.models.delete({ id });
  }
}

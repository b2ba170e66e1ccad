import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { FindOptionsSelect } from 'typeorm';
import { AblationEntity } from '../entities/ablation.entity';
import { EvalRunEntity } from '../entities/eval-run.entity';
import type { AblationGenerator } from '@lumina/shared';
import { ABLATION_PROGRESS_SQL } from './ablation-progress.sql';
import { LATEST_COMPLETED_ABLATIONS_SQL } from './latest-ablations.sql';

/** What a matrix row needs of a run: no per-item results. */
const ROW_COLUMNS: FindOptionsSelect<EvalRunEntity> = {
  id: true,
  status: true,
  settings: true,
  metrics: true,
  answers: true,
  refusal: true,
  timings: true,
  llmCalls: true,
  error: true,
};

/** Ablations and their combinations' runs. */
@Injectable()
export class AblationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get ablations() {
    return this.dataSource.getRepository(AblationEntity);
  }

  private get runs() {
    return this.dataSource.getRepository(EvalRunEntity);
  }

  create(values: Omit<AblationEntity, 'id' | 'createdAt' | 'bank'>): Promise<AblationEntity> {
    return this.ablations.save(this.ablations.create(values));
  }

  findOne(id: string): Promise<AblationEntity | null> {
    return this.ablations.findOneBy({ id });
  }

  update(id: string, values: Partial<Pick<AblationEntity, 'status' | 'error' | 'startedAt' | 'finishedAt'>>) {
    return this.ablations.update({ id }, values);
  }

  /** A bank's ablations, newest first, and how many it has. */
  findByBank(bankId: string, offset: number, limit: number): Promise<[AblationEntity[], number]> {
    return this.ablations.findAndCount({
      where: { bankId },
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: offset,
      take: limit,
    });
  }

  /** The ablation's runs (the matrix's rows), without per-item results. */
  rows(ablationId: string): Promise<EvalRunEntity[]> {
    return this.runs.find({ where: { ablationId }, select: ROW_COLUMNS });
  }

  /** Each ablation's run count and finished runs. */
  async progress(ablationIds: string[]): Promise<Map<string, { total: number; finished: number }>> {
    if (ablationIds.length === 0) return new Map();
    const rows: { ablationId: string; total: number; finished: number }[] = await this.dataSource.query(
      ABLATION_PROGRESS_SQL,
      [ablationIds],
    );
    return new Map(rows.map((row) => [row.ablationId, { total: row.total, finished: row.finished }]));
  }

  /** Each bank's latest completed ablation (or only this bank's), with the bank's name. */
  async latestCompleted(bankId: string | null = null): Promise<
    {
      id: string;
      bankId: string;
      bankName: string;
      collectionId: string;
      generator: AblationGenerator;
      finishedAt: Date | null;
    }[]
  > {
    return this.dataSource.query(LATEST_COMPLETED_ABLATIONS_SQL, [bankId]);
  }
}

import { InjectQueue } from '@nestjs/bullmq';
import { ALL_COLLECTIONS, canWrite } from '../auth/principal';
import type { CollectionAccess } from '../auth/principal';
import { Injectable, Logger } from '@nestjs/common';
import {
  ablationCombinations,
  ablationFigures,
  ablationLabel,
  BEST_ABLATION_RULE,
  bestAblationRow,
  enhancementsWorseThanOff,
} from '@lumina/eval';
import { resolveSettings } from '@lumina/shared';
import type {
  Ablation,
  AblationRow,
  BankEnhancementWarnings,
  AblationSummary,
  AblationSwitches,
  Page,
  SearchSettings,
} from '@lumina/shared';
import { Queue } from 'bullmq';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import { JobName, jobOptions } from '../../jobs/job-catalogue';
import { QueueName } from '../../jobs/queue-name.enum';
import { QuestionBankService } from '../question-bank/question-bank.service';
import type { AblationEntity } from './entities/ablation.entity';
import type { EvalRunEntity } from './entities/eval-run.entity';
import { EvalRunMissingError, EvaluationService } from './evaluation.service';
import { AblationRepository } from './repositories/ablation.repository';
import { NotFoundError } from '../../common/errors/domain-errors';

/** The job's ablation is gone (its bank was deleted): the job can never succeed. */
export class AblationMissingError extends NotFoundError {}

/**
 * Ablations: one request evaluates a bank under every combination of ranker, expansion, HyDE and
 * rerank the server can run. Each combination is an ordinary evaluation run (EvaluationService.execute,
 * the same search and scoring as a single run), executed one after another in one job.
 */
@Injectable()
export class AblationService {
  private readonly logger = new Logger(AblationService.name);

  constructor(
    private readonly repository: AblationRepository,
    private readonly evaluation: EvaluationService,
    private readonly banks: QuestionBankService,
    @InjectQueue(QueueName.Evaluation) private readonly queue: Queue,
  ) {}

  /** Records the ablation and one queued run per combination, and queues the job. */
  async request(bankId: string, overrides: Partial<SearchSettings>): Promise<Ablation> {
    const itemCount = await this.evaluation.assertEvaluable(bankId);
    const { generator, rerankAvailable } = await this.evaluation.capabilities(bankId);
    const baseSettings = resolveSettings({ ...overrides });
    const ablation = await this.repository.create({
      bankId,
      status: 'queued',
      baseSettings,
      generator,
      rerankAvailable,
      error: null,
      startedAt: null,
      finishedAt: null,
    });
    await this.evaluation.createRuns(
      bankId,
      itemCount,
      ablationCombinations({ rerankAvailable }).map((switches) => ({ ...baseSettings, ...switches })),
      ablation.id,
    );
    await this.queue.add(
      JobName.EvaluateAblation,
      { ablationId: ablation.id },
      jobOptions(JobName.EvaluateAblation, ablation.id),
    );
    return this.findOne(ablation.id);
  }

  /**
   * The job: every combination's run in order (a retry skips those already completed). A run that
   * fails is stored failed and the others go on; the ablation fails only when none completed.
   */
  async execute(
    ablationId: string,
    onProgress: (fraction: number) => Promise<void> = async () => undefined,
  ): Promise<AblationSummary> {
    const ablation = await this.repository.findOne(ablationId);
    if (!ablation) throw new AblationMissingError(`ablation ${ablationId} no longer exists`);
    await this.repository.update(ablationId, { status: 'running', startedAt: new Date(), error: null });
    const runs = sortByCombination(await this.repository.rows(ablationId), ablation.rerankAvailable);
    let completed = 0;
    for (const [index, run] of runs.entries()) {
      if (run.status === 'completed') {
        completed++;
        continue;
      }
      try {
        await this.evaluation.execute(run.id, (fraction) => onProgress((index + fraction) / runs.length));
        completed++;
      } catch (error) {
        if (error instanceof EvalRunMissingError) throw new AblationMissingError(error.message);
        // execute stored the failure on the run; the other combinations still run.
        this.logger.warn({
          msg: 'ablation combination failed',
          ablationId,
          runId: run.id,
          error: error instanceof Error ? error.message : String(error),
        });
      }
      await onProgress((index + 1) / runs.length);
    }
    await this.repository.update(ablationId, {
      status: completed > 0 ? 'completed' : 'failed',
      error: completed > 0 ? null : 'every combination failed; see its run for the reason',
      finishedAt: new Date(),
    });
    return this.summary(ablationId);
  }

  /** The matrix: each combination's settings and figures, and the best one. */
  async findOne(id: string): Promise<Ablation> {
    const ablation = await this.repository.findOne(id);
    if (!ablation) throw new NotFoundError(`ablation ${id} not found`);
    const runs = sortByCombination(await this.repository.rows(id), ablation.rerankAvailable);
    const rows: AblationRow[] = runs.map((run) => {
      const switches = switchesOf(run.settings);
      return {
        runId: run.id,
        label: ablationLabel(switches, ablation.generator),
        switches,
        status: run.status,
        error: run.error,
        figures: run.status === 'completed' ? ablationFigures(run) : null,
      };
    });
    return {
      ...toSummary(ablation, {
        total: rows.length,
        finished: rows.filter((row) => row.status === 'completed' || row.status === 'failed').length,
      }),
      baseSettings: ablation.baseSettings,
      generator: ablation.generator,
      rerankAvailable: ablation.rerankAvailable,
      rows,
      bestRunId: bestAblationRow(rows)?.runId ?? null,
      bestRule: BEST_ABLATION_RULE,
      error: ablation.error,
    };
  }

  /**
   * Where each bank's latest completed ablation measured an enhancement worse than off (the ranker alone
   * against it with only that enhancement on, by nDCG@10); banks with none are left out, and so are banks
   * of collections `access` does not manage.
   */
  async enhancementWarnings(access: CollectionAccess = ALL_COLLECTIONS): Promise<BankEnhancementWarnings[]> {
    const warnings: BankEnhancementWarnings[] = [];
    for (const ablation of await this.repository.latestCompleted()) {
      if (!canWrite(access, ablation.collectionId)) continue;
      const rows = (await this.repository.rows(ablation.id)).map((run) => ({
        runId: run.id,
        switches: switchesOf(run.settings),
        status: run.status,
        figures: run.status === 'completed' ? ablationFigures(run) : null,
      }));
      const worse = enhancementsWorseThanOff(rows);
      if (worse.length === 0) continue;
      warnings.push({
        bankId: ablation.bankId,
        bankName: ablation.bankName,
        ablationId: ablation.id,
        generator: ablation.generator,
        finishedAt: ablation.finishedAt ? new Date(ablation.finishedAt).toISOString() : null,
        worse,
      });
    }
    return warnings;
  }

  /** A bank's ablations, newest first (paginated). */
  async findByBank(bankId: string, query: { page?: number; limit?: number }): Promise<Page<AblationSummary>> {
    await this.banks.assertExists(bankId);
    const window = pageWindow(query);
    const [ablations, total] = await this.repository.findByBank(bankId, window.offset, window.limit);
    const progress = await this.repository.progress(ablations.map((a) => a.id));
    return pageOf(
      ablations.map((a) => toSummary(a, progress.get(a.id) ?? { total: 0, finished: 0 })),
      total,
      window,
    );
  }

  private async summary(id: string): Promise<AblationSummary> {
    const ablation = await this.repository.findOne(id);
    if (!ablation) throw new AblationMissingError(`ablation ${id} no longer exists`);
    const progress = await this.repository.progress([id]);
    return toSummary(ablation, progress.get(id) ?? { total: 0, finished: 0 });
  }
}

function switchesOf(settings: SearchSettings): AblationSwitches {
  return {
    ranker: settings.ranker,
    enableQueryExpansion: settings.enableQueryExpansion,
    enableHyDE: settings.enableHyDE,
    enableRerank: settings.enableRerank,
  };
}

/** Runs in the order of ablationCombinations (cheapest first), whatever order the database returned. */
function sortByCombination(runs: EvalRunEntity[], rerankAvailable: boolean): EvalRunEntity[] {
  const order = new Map(
    ablationCombinations({ rerankAvailable }).map((switches, index) => [JSON.stringify(switches), index]),
  );
  const rank = (run: EvalRunEntity) => order.get(JSON.stringify(switchesOf(run.settings))) ?? order.size;
  return [...runs].sort((a, b) => rank(a) - rank(b));
}

function toSummary(ablation: AblationEntity, progress: { total: number; finished: number }): AblationSummary {
  return {
    id: ablation.id,
    bankId: ablation.bankId,
    status: ablation.status,
    finished: progress.finished,
    total: progress.total,
    createdAt: ablation.createdAt.toISOString(),
    finishedAt: ablation.finishedAt ? ablation.finishedAt.toISOString() : null,
  };
}

import { Controller, Get, Param, ParseUUIDPipe, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  compareEvalRunsQuerySchema,
  evalRunComparisonSchema,
  evalRunSchema,
  evalRunSummarySchema,
  listEvalRunsQuerySchema,
  pageOf,
} from '@lumina/shared';
import type {
  CompareEvalRunsQuery,
  EvalRun,
  EvalRunComparison,
  EvalRunSummary,
  ListEvalRunsQuery,
  Page,
} from '@lumina/shared';
import { collectionAccess, CurrentPrincipal } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { CollectionWorkGuard, WorkOn } from '../collections/collection-work.guard';
import { ValidQuery, ValidResponse } from '../../common/validation/zod-contract';
import { EvaluationService } from './evaluation.service';

const runPage = pageOf(evalRunSummarySchema);

@ApiTags('eval-runs')
@UseGuards(CollectionWorkGuard)
@Controller('eval-runs')
export class EvalRunController {
  constructor(private readonly evaluation: EvaluationService) {}

  @Get()
  @WorkOn('bank', 'bankId', 'query')
  @ApiOperation({ summary: 'Evaluation runs, newest first (paginated; filter by bank)' })
  @ValidResponse(runPage, 'EvalRunSummaryPage')
  findAll(
    @ValidQuery(listEvalRunsQuerySchema) query: ListEvalRunsQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<EvalRunSummary>> {
    return this.evaluation.findAll(query, collectionAccess(principal));
  }

  @Get('compare')
  @WorkOn('run', ['a', 'b'], 'query')
  @ApiOperation({
    summary: 'Paired comparison of two completed runs (B − A)',
    description:
      'Over the items both runs scored: each metric with its p-value (exact McNemar for hit rates, paired ' +
      'randomisation otherwise, Holm-adjusted), the items whose hits flipped, and refusal flips.',
  })
  @ValidResponse(evalRunComparisonSchema, 'EvalRunComparison')
  @ApiBadRequestResponse({ description: 'A run not completed, or no item in common' })
  @ApiNotFoundResponse({ description: 'No such run' })
  compare(@ValidQuery(compareEvalRunsQuerySchema) query: CompareEvalRunsQuery): Promise<EvalRunComparison> {
    return this.evaluation.compare(query.a, query.b);
  }

  @Get(':id')
  @WorkOn('run')
  @ApiOperation({
    summary: 'A run: settings, models, dataset hash, metrics with intervals, per-item results',
  })
  @ValidResponse(evalRunSchema, 'EvalRun')
  @ApiNotFoundResponse({ description: 'No such run' })
  findOne(@Param('id', ParseUUIDPipe) id: string): Promise<EvalRun> {
    return this.evaluation.findOne(id);
  }
}

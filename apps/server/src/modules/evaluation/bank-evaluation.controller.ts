import { Controller, HttpCode, Param, ParseUUIDPipe, Post, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { evalRunSummarySchema, evaluateBankRequestSchema } from '@lumina/shared';
import type { EvalRunSummary, EvaluateBankRequest } from '@lumina/shared';
import { CollectionWorkGuard, WorkOn } from '../collections/collection-work.guard';
import { contractRef, ValidBody } from '../../common/validation/zod-contract';
import { EvaluationService } from './evaluation.service';

@ApiTags('eval-runs')
@UseGuards(CollectionWorkGuard)
@Controller('question-banks')
export class BankEvaluationController {
  constructor(private readonly evaluation: EvaluationService) {}

  @Post(':id/evaluate')
  @WorkOn('bank')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Evaluate the current retrieval on a bank (admin)',
    description:
      'Queues a run: every item goes through the same search as /rag/search with these settings; in-scope ' +
      'items are scored (hit@1, hit@5, hit@topK, recall@topK, recall@100, MRR@10, nDCG@10 with 95% ' +
      'intervals), out-of-scope items give the refusal rate. Poll GET /eval-runs/:id.',
  })
  @ApiAcceptedResponse({
    description: 'The queued run',
    schema: { $ref: contractRef(evalRunSummarySchema, 'EvalRunSummary') },
  })
  evaluate(
    @Param('id', ParseUUIDPipe) id: string,
    @ValidBody(evaluateBankRequestSchema, 'EvaluateBankRequest') body: EvaluateBankRequest,
  ): Promise<EvalRunSummary> {
    return this.evaluation.request(id, body.settings ?? {});
  }
}

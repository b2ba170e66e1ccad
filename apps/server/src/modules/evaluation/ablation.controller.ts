import { Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  ablationSchema,
  ablationSummarySchema,
  enhancementWarningsSchema,
  pageOf,
  pageQuerySchema,
  startAblationRequestSchema,
} from '@lumina/shared';
import type {
  Ablation,
  AblationSummary,
  BankEnhancementWarnings,
  Page,
  PageQuery,
  StartAblationRequest,
} from '@lumina/shared';
import { collectionAccess, CurrentPrincipal } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { CollectionWorkGuard, WorkOn } from '../collections/collection-work.guard';
import { AblationService } from './ablation.service';
import { contractRef, ValidBody, ValidQuery, ValidResponse } from '../../common/validation/zod-contract';

const ablationPage = pageOf(ablationSummarySchema);

@ApiTags('eval-runs')
@UseGuards(CollectionWorkGuard)
@Controller()
export class AblationController {
  constructor(private readonly ablations: AblationService) {}

  @Post('question-banks/:id/ablation')
  @WorkOn('bank')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Evaluate a bank under every combination of ranker, expansion, HyDE and rerank (admin)',
    description:
      'Queues one job that runs the bank once per combination the server can run: bm25, dense and hybrid, ' +
      'each with expansion off/on, HyDE off/on and (when a reranker is configured) rerank off/on. Without ' +
      'an LLM, expansion and HyDE are written offline (pseudo-relevance feedback). Each combination is an ' +
      'ordinary evaluation run. Poll GET /ablations/:id for the matrix.',
  })
  @ApiAcceptedResponse({
    description: 'The queued ablation, its combinations queued',
    schema: { $ref: contractRef(ablationSchema, 'Ablation') },
  })
  @ApiBadRequestResponse({ description: 'The bank has no items, or the settings are invalid' })
  @ApiNotFoundResponse({ description: 'No such bank' })
  start(
    @Param('id', ParseUUIDPipe) id: string,
    @ValidBody(startAblationRequestSchema, 'StartAblationRequest') body: StartAblationRequest,
  ): Promise<Ablation> {
    return this.ablations.request(id, body.settings ?? {});
  }

  @Get('question-banks/:id/ablations')
  @WorkOn('bank')
  @ApiOperation({ summary: "A bank's ablations, newest first (paginated)" })
  @ValidResponse(ablationPage, 'AblationSummaryPage')
  @ApiNotFoundResponse({ description: 'No such bank' })
  findByBank(
    @Param('id', ParseUUIDPipe) id: string,
    @ValidQuery(pageQuerySchema) query: PageQuery,
  ): Promise<Page<AblationSummary>> {
    return this.ablations.findByBank(id, query);
  }

  @Get('enhancement-warnings')
  @ApiOperation({
    summary: 'Enhancements the latest ablation of each bank measured worse than off, with the figures',
    description:
      "For each bank whose latest completed ablation has one: each ranker's combination with only query " +
      'expansion, only HyDE or only rerank on that scored a lower nDCG@10 than the ranker alone, with both ' +
      'figures and runs. Banks with none are left out.',
  })
  @ValidResponse(
    enhancementWarningsSchema,
    'EnhancementWarnings',
    'The banks and their enhancements measured worse than off (may be empty)',
  )
  enhancementWarnings(@CurrentPrincipal() principal: Principal): Promise<BankEnhancementWarnings[]> {
    return this.ablations.enhancementWarnings(collectionAccess(principal));
  }

  @Get('ablations/:id')
  @WorkOn('ablation')
  @ApiOperation({
    summary: 'An ablation matrix: every combination with nDCG@10, MRR, answer figures, latency, LLM calls',
    description:
      'The best completed combination has the highest nDCG@10; a tie goes to fewer LLM calls, then to ' +
      'the lower median latency.',
  })
  @ValidResponse(ablationSchema, 'Ablation')
  @ApiNotFoundResponse({ description: 'No such ablation' })
  findOne(@Param('id', ParseUUIDPipe) id: string): Promise<Ablation> {
    return this.ablations.findOne(id);
  }
}

import { Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { LearnedRankingModel } from '@lumina/rag';
import {
  activeRerankerQuerySchema,
  activeRerankerSchema,
  fitRerankerRequestSchema,
  listRerankersQuerySchema,
  pageOf,
  rerankerModelSummarySchema,
} from '@lumina/shared';
import type {
  ActiveReranker,
  ActiveRerankerQuery,
  FitRerankerRequest,
  ListRerankersQuery,
  Page,
  RerankerModelSummary,
} from '@lumina/shared';
import { collectionAccess, CurrentPrincipal } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { CollectionWorkGuard, WorkOn } from '../collections/collection-work.guard';
import { contractRef, ValidBody, ValidQuery, ValidResponse } from '../../common/validation/zod-contract';
import { RerankerModelService } from './reranker-model.service';

const rerankerPage = pageOf(rerankerModelSummarySchema);

@ApiTags('rerankers')
@UseGuards(CollectionWorkGuard)
@Controller()
export class RerankersController {
  constructor(private readonly rerankers: RerankerModelService) {}

  @Post('question-banks/:id/rerankers')
  @WorkOn('bank')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Fit a learned reranker on a question bank (admin)',
    description:
      'Queues a job: every in-scope question with expected sources is searched as the app searches (BM25, ' +
      'candidateK candidates), the learned reranker’s features of its candidates are read from the index, ' +
      'and a model is fitted and cross-validated on the bank (questions about the same source kept in one ' +
      'fold). With a /v1/rerank endpoint or an LLM configured, that reranker is measured on the same ' +
      'candidates. When fitted (and not worse than no reranking) the model is switched on unless ' +
      '`activate` is false. Poll GET /rerankers/:id.',
  })
  @ApiAcceptedResponse({
    description: 'The queued fit',
    schema: { $ref: contractRef(rerankerModelSummarySchema, 'RerankerModelSummary') },
  })
  @ApiBadRequestResponse({
    description:
      'The bank has no items or fewer than 10 in-scope questions with expected sources, or the body is invalid',
  })
  @ApiNotFoundResponse({ description: 'No such bank' })
  fit(
    @Param('id', ParseUUIDPipe) id: string,
    @ValidBody(fitRerankerRequestSchema, 'FitRerankerRequest') body: FitRerankerRequest,
  ): Promise<RerankerModelSummary> {
    return this.rerankers.request(id, body);
  }

  @Get('rerankers')
  @WorkOn('bank', 'bankId', 'query')
  @ApiOperation({ summary: 'Fitted rerankers, newest first (paginated; ?bankId= for one bank)' })
  @ValidResponse(rerankerPage, 'RerankerModelSummaryPage')
  @ApiNotFoundResponse({ description: 'No such bank' })
  findAll(
    @ValidQuery(listRerankersQuerySchema) query: ListRerankersQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<RerankerModelSummary>> {
    return this.rerankers.findAll(query, collectionAccess(principal));
  }

  @Get('rerankers/active')
  @ApiOperation({
    summary:
      'What serves enableRerank now: a fitted model, a /v1/rerank endpoint, the LLM, a model file, or none',
  })
  @ValidResponse(activeRerankerSchema, 'ActiveReranker')
  @ApiNotFoundResponse({ description: 'A collection the key may not read' })
  active(
    @ValidQuery(activeRerankerQuerySchema) query: ActiveRerankerQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ActiveReranker> {
    return this.rerankers.active(collectionAccess(principal), query.collectionId);
  }

  @Get('rerankers/:id')
  @WorkOn('reranker')
  @ApiOperation({
    summary: 'A fitted reranker: status, how it measured on its bank, the features it leans on',
  })
  @ValidResponse(rerankerModelSummarySchema, 'RerankerModelSummary')
  @ApiNotFoundResponse({ description: 'No such reranker' })
  findOne(@Param('id', ParseUUIDPipe) id: string): Promise<RerankerModelSummary> {
    return this.rerankers.findOne(id);
  }

  @Get('rerankers/:id/model')
  @WorkOn('reranker')
  @ApiOperation({
    summary: 'The fitted model as JSON (what RERANK_MODEL_FILE reads on another server)',
  })
  @ApiNotFoundResponse({ description: 'No such reranker' })
  @ApiConflictResponse({ description: 'It is not fitted yet, or its fit failed' })
  model(@Param('id', ParseUUIDPipe) id: string): Promise<LearnedRankingModel> {
    return this.rerankers.modelOf(id);
  }

  @Post('rerankers/:id/activate')
  @WorkOn('reranker')
  @HttpCode(200)
  @ApiOperation({ summary: 'Make this fitted model the one that serves enableRerank' })
  @ValidResponse(rerankerModelSummarySchema, 'RerankerModelSummary')
  @ApiNotFoundResponse({ description: 'No such reranker' })
  @ApiConflictResponse({ description: 'It is not fitted (queued, fitting or failed)' })
  activate(@Param('id', ParseUUIDPipe) id: string): Promise<RerankerModelSummary> {
    return this.rerankers.activate(id);
  }

  @Post('rerankers/:id/deactivate')
  @WorkOn('reranker')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Stop serving enableRerank with it (the configured reranker, if any, takes over)',
  })
  @ValidResponse(rerankerModelSummarySchema, 'RerankerModelSummary')
  @ApiNotFoundResponse({ description: 'No such reranker' })
  deactivate(@Param('id', ParseUUIDPipe) id: string): Promise<RerankerModelSummary> {
    return this.rerankers.deactivate(id);
  }

  @Delete('rerankers/:id')
  @WorkOn('reranker')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: 'No such reranker' })
  @ApiConflictResponse({ description: 'It is still queued or fitting' })
  async remove(@Param('id', ParseUUIDPipe) id: string): Promise<void> {
    await this.rerankers.remove(id);
  }
}

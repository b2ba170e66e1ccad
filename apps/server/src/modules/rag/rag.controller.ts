import { Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { searchRequestSchema, searchResponseSchema } from '@lumina/shared';
import type { SearchRequest, SearchResponse } from '@lumina/shared';
import type { Response } from 'express';
import { ValidBody, ValidResponse } from '../../common/validation/zod-contract';
import { collectionAccess, CurrentPrincipal } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { RagService } from './rag.service';

@ApiTags('rag')
@Controller('rag')
export class RagController {
  constructor(private readonly rag: RagService) {}

  @Post('search')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Search the documents',
    description:
      'Runs the original query, and when enabled the expansion variants and the HyDE passage, at the same ' +
      'time; fuses every ranked list (score fusion with all-MiniLM-L6-v2, else reciprocal rank fusion) and says ' +
      'which branch found each passage. ' +
      'Expansion and HyDE come from the LLM when one is configured (source "llm"), else from pseudo-relevance ' +
      'feedback (source "prf"). A failed branch or reranker becomes a warning.',
  })
  @ValidResponse(
    searchResponseSchema,
    'SearchResponse',
    'Ranked passages with provenance, expansions, HyDE, timings and warnings',
  )
  @ApiBadRequestResponse({ description: 'Empty or over-long query, unknown or out-of-range settings' })
  @ApiNotFoundResponse({ description: 'A collection of collectionIds does not exist' })
  search(
    @ValidBody(searchRequestSchema, 'SearchRequest') body: SearchRequest,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SearchResponse> {
    // A client that goes away stops the search's LLM calls too.
    const controller = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) controller.abort(new Error('the client closed the connection'));
    });
    return this.rag.searchIn(
      collectionAccess(principal),
      body.collectionIds,
      body.query,
      body.settings ?? {},
      controller.signal,
    );
  }
}

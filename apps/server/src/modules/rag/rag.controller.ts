import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { SearchResult } from '@lumina/rag';
import { SearchRequestDto } from './dtos/search-request.dto';
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
      'time; fuses every ranked list with reciprocal rank fusion and says which branch found each passage.',
  })
  @ApiOkResponse({ description: 'Ranked passages with provenance, expansions, HyDE, timings and warnings' })
  @ApiBadRequestResponse({ description: 'Empty or over-long query, unknown or out-of-range settings' })
  search(@Body() body: SearchRequestDto): Promise<SearchResult> {
    return this.rag.search(body.query, body.settings ?? {});
  }
}

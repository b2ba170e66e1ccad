import { Controller, Get, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DEFAULT_PASSAGE_NEIGHBOURS, passageQuerySchema, passageViewSchema } from '@lumina/shared';
import type { PassageQuery, PassageView } from '@lumina/shared';
import { collectionAccess, CurrentPrincipal } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { ValidQuery, ValidResponse } from '../../common/validation/zod-contract';
import { DocumentCatalogService } from './document-catalog.service';

const uuid = new ParseUUIDPipe();

@ApiTags('documents')
@Controller('chunks')
export class ChunksController {
  constructor(private readonly catalog: DocumentCatalogService) {}

  @Get(':id')
  @ApiOperation({
    summary: 'A passage by its chunk id, with its document and the passages around it',
    description:
      'What a citation or a search hit names: the chunk, its document (id, title, collection), and up to ' +
      '`neighbours` passages of the same document before and after it, in reading order.',
  })
  @ValidResponse(passageViewSchema, 'Passage', 'The passage, its document and its neighbours')
  @ApiBadRequestResponse({ description: 'id is not a UUID, or neighbours is not an integer from 0 to 5' })
  @ApiNotFoundResponse({ description: 'No such chunk (or it is in a collection the key may not read)' })
  get(
    @Param('id', uuid) id: string,
    @ValidQuery(passageQuerySchema) query: PassageQuery,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PassageView> {
    return this.catalog.passage(
      id,
      query.neighbours ?? DEFAULT_PASSAGE_NEIGHBOURS,
      collectionAccess(principal),
    );
  }
}

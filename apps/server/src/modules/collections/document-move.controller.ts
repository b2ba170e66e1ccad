import { Controller, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { documentViewSchema, moveDocumentRequestSchema } from '@lumina/shared';
import type { DocumentView, MoveDocumentRequest } from '@lumina/shared';
import { collectionAccess, CurrentPrincipal } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { ValidBody, ValidResponse } from '../../common/validation/zod-contract';
import { DocumentMoveService } from './document-move.service';

const uuid = new ParseUUIDPipe();

@ApiTags('documents')
@Controller('documents')
export class DocumentMoveController {
  constructor(private readonly moves: DocumentMoveService) {}

  @Post(':id/move')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Move a document into another collection (admin, or a key with write grants on both)',
    description: 'The document and its chunks move together, in one transaction.',
  })
  @ApiNotFoundResponse({ description: 'No such document or collection, or one the key may not read' })
  @ApiForbiddenResponse({ description: 'The key may read a collection of the move but not write it' })
  @ApiConflictResponse({
    description:
      'The target already holds the same file, a collection is being deleted, or the document is being indexed',
  })
  @ValidResponse(documentViewSchema, 'DocumentView', 'The moved document')
  move(
    @Param('id', uuid) id: string,
    @ValidBody(moveDocumentRequestSchema, 'MoveDocumentRequest') body: MoveDocumentRequest,
    @CurrentPrincipal() principal: Principal,
  ): Promise<DocumentView> {
    return this.moves.move(collectionAccess(principal), id, body.collectionId);
  }
}

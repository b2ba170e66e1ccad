import { Controller, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { documentViewSchema, moveDocumentRequestSchema } from '@lumina/shared';
import type { DocumentView, MoveDocumentRequest } from '@lumina/shared';
import { Roles } from '../auth/principal';
import { ValidBody, ValidResponse } from '../../common/validation/zod-contract';
import { DocumentMoveService } from './document-move.service';

const uuid = new ParseUUIDPipe();

@ApiTags('documents')
@Controller('documents')
export class DocumentMoveController {
  constructor(private readonly moves: DocumentMoveService) {}

  @Post(':id/move')
  @Roles('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Move a document into another collection (admin)',
    description: 'The document and its chunks move together, in one transaction.',
  })
  @ApiNotFoundResponse({ description: 'No such document or collection' })
  @ApiConflictResponse({
    description:
      'The target already holds the same file, a collection is being deleted, or the document is being indexed',
  })
  @ValidResponse(documentViewSchema, 'DocumentView', 'The moved document')
  move(
    @Param('id', uuid) id: string,
    @ValidBody(moveDocumentRequestSchema, 'MoveDocumentRequest') body: MoveDocumentRequest,
  ): Promise<DocumentView> {
    return this.moves.move(id, body.collectionId);
  }
}

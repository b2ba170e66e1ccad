import { Controller, Get, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { retrievalTraceSchema } from '@lumina/shared';
import type { RetrievalTrace } from '@lumina/shared';
import { ValidResponse } from '../../common/validation/zod-contract';
import { CurrentPrincipal } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { ConversationService } from './conversation.service';

@ApiTags('chat')
@Controller('messages')
export class MessagesController {
  constructor(private readonly conversations: ConversationService) {}

  @Get(':id/trace')
  @ApiOperation({
    summary: 'How an answer came about',
    description:
      'The query and its standalone rewrite, settings, expansions, HyDE passage, retrieved chunks with ' +
      'per-branch ranks and scores, prompt version, model, tokens, timings and notFound.',
  })
  @ValidResponse(retrievalTraceSchema, 'RetrievalTrace')
  @ApiNotFoundResponse({
    description:
      'Unknown message (or one of another API key’s conversation), or a question (only answers have traces)',
  })
  trace(
    @CurrentPrincipal() principal: Principal,
    @Param('id', new ParseUUIDPipe({ errorHttpStatusCode: 400 })) id: string,
  ): Promise<RetrievalTrace> {
    return this.conversations.trace(principal.keyId, id);
  }
}

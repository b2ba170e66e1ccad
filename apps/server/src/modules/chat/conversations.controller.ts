import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Query } from '@nestjs/common';
import {
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Conversation, ConversationDetail, Page } from '@lumina/shared';
import { CurrentPrincipal } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { PageQueryDto } from '../../common/pagination/page-query.dto';
import { ConversationService } from './conversation.service';
import { RenameConversationDto } from './dtos/rename-conversation.dto';

const uuid = new ParseUUIDPipe({ version: undefined, errorHttpStatusCode: 400 });

@ApiTags('chat')
@Controller('conversations')
export class ConversationsController {
  constructor(private readonly conversations: ConversationService) {}

  @Get()
  @ApiOperation({ summary: 'The conversations of the request’s API key, most recently active first' })
  @ApiOkResponse({ description: '{ items, page, limit, total, totalPages }' })
  list(@CurrentPrincipal() principal: Principal, @Query() query: PageQueryDto): Promise<Page<Conversation>> {
    return this.conversations.list(principal.keyId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A conversation with its messages (paginated with ?page=&limit=), oldest first' })
  @ApiNotFoundResponse({ description: 'Unknown conversation, or one of another API key' })
  detail(
    @CurrentPrincipal() principal: Principal,
    @Param('id', uuid) id: string,
    @Query() query: PageQueryDto,
  ): Promise<ConversationDetail> {
    return this.conversations.detail(principal.keyId, id, query);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename a conversation' })
  @ApiNotFoundResponse({ description: 'Unknown conversation, or one of another API key' })
  rename(
    @CurrentPrincipal() principal: Principal,
    @Param('id', uuid) id: string,
    @Body() body: RenameConversationDto,
  ): Promise<Conversation> {
    return this.conversations.rename(principal.keyId, id, body.title);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a conversation, its messages and their traces' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: 'Unknown conversation, or one of another API key' })
  async remove(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string): Promise<void> {
    await this.conversations.delete(principal.keyId, id);
  }
}

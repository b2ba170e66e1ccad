import { Controller, Delete, Get, Header, HttpCode, Param, ParseUUIDPipe, Patch, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import {
  conversationDetailSchema,
  conversationListQuerySchema,
  conversationSchema,
  pageOf,
  pageQuerySchema,
  renameConversationRequestSchema,
} from '@lumina/shared';
import type {
  Conversation,
  ConversationDetail,
  ConversationListQuery,
  Page,
  PageQuery,
  RenameConversationRequest,
} from '@lumina/shared';
import { CurrentPrincipal } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { ConversationService } from './conversation.service';
import { ValidBody, ValidQuery, ValidResponse } from '../../common/validation/zod-contract';

const uuid = new ParseUUIDPipe({ version: undefined, errorHttpStatusCode: 400 });

@ApiTags('chat')
@Controller('conversations')
export class ConversationsController {
  constructor(private readonly conversations: ConversationService) {}

  @Get()
  @ApiOperation({
    summary: 'The conversations of the request’s API key, most recently active first',
    description: 'With `q`: only those whose title or any question or answer contains the text.',
  })
  @ValidResponse(pageOf(conversationSchema), 'ConversationPage')
  list(
    @CurrentPrincipal() principal: Principal,
    @ValidQuery(conversationListQuerySchema) query: ConversationListQuery,
  ): Promise<Page<Conversation>> {
    return this.conversations.list(principal.keyId, query);
  }

  @Get(':id/export')
  @Header('Content-Type', 'text/markdown; charset=utf-8')
  @ApiOperation({ summary: 'The conversation as a Markdown file, each answer followed by its sources' })
  @ApiProduces('text/markdown')
  @ApiOkResponse({ description: 'Markdown (an attachment named after the title)' })
  @ApiNotFoundResponse({ description: 'Unknown conversation, or one of another API key' })
  async export(
    @CurrentPrincipal() principal: Principal,
    @Param('id', uuid) id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const { fileName, markdown } = await this.conversations.exportMarkdown(principal.keyId, id);
    res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
    return markdown;
  }

  @Get(':id')
  @ApiOperation({ summary: 'A conversation with its messages (paginated with ?page=&limit=), oldest first' })
  @ValidResponse(conversationDetailSchema, 'ConversationDetail')
  @ApiNotFoundResponse({ description: 'Unknown conversation, or one of another API key' })
  detail(
    @CurrentPrincipal() principal: Principal,
    @Param('id', uuid) id: string,
    @ValidQuery(pageQuerySchema) query: PageQuery,
  ): Promise<ConversationDetail> {
    return this.conversations.detail(principal.keyId, id, query);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename a conversation' })
  @ValidResponse(conversationSchema, 'Conversation')
  @ApiNotFoundResponse({ description: 'Unknown conversation, or one of another API key' })
  rename(
    @CurrentPrincipal() principal: Principal,
    @Param('id', uuid) id: string,
    @ValidBody(renameConversationRequestSchema, 'RenameConversationRequest') body: RenameConversationRequest,
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

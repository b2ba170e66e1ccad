import { Controller, Post, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { chatAskRequestSchema, chatStreamEventSchemas, generalKnowledgeRequestSchema } from '@lumina/shared';
import type { ChatAskRequest, GeneralKnowledgeRequest } from '@lumina/shared';
import type { Request, Response } from 'express';
import { collectionAccess, CurrentPrincipal } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { ChatStreams } from './chat-streams';
import { ChatService } from './chat.service';
import { ValidBody, ValidEventStream } from '../../common/validation/zod-contract';

const EVENTS =
  'Server-Sent Events: `retrieval` (ranked passages numbered [1]..[n], expansions, HyDE), `token` (answer ' +
  'text), `citations` (valid citations, dropped markers), `done` (ids, notFound, generator, usage, timings) ' +
  'or `error` (a sentence to show).';

/** Each event's data schema, named as the OpenAPI document's components. */
const CHAT_EVENTS = {
  retrieval: { schema: chatStreamEventSchemas.retrieval, name: 'ChatRetrievalEvent' },
  token: { schema: chatStreamEventSchemas.token, name: 'ChatTokenEvent' },
  citations: { schema: chatStreamEventSchemas.citations, name: 'ChatCitationsEvent' },
  done: { schema: chatStreamEventSchemas.done, name: 'ChatDoneEvent' },
  error: { schema: chatStreamEventSchemas.error, name: 'ChatErrorEvent' },
};

const CHAT_EXAMPLES = {
  'a new conversation': {
    value: { message: 'How do I fail over the database?', settings: { ranker: 'bm25', topK: 6 } },
  },
  'a follow-up': {
    summary: 'conversationId: the id a first answer returned',
    value: { conversationId: '3fa85f64-5717-4562-b3fc-2c963f66afa6', message: 'And then?' },
  },
};

@ApiTags('chat')
@Controller('chat')
export class ChatController {
  constructor(
    private readonly chat: ChatService,
    private readonly streams: ChatStreams,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Ask a question; the answer streams, grounded in the documents, with citations',
    description: EVENTS,
  })
  @ValidEventStream(CHAT_EVENTS, 'The event stream')
  @ApiBadRequestResponse({ description: 'Empty or over-long message, malformed settings' })
  @ApiNotFoundResponse({ description: 'Unknown conversation (or another key’s)' })
  async ask(
    @ValidBody(chatAskRequestSchema, 'ChatAskRequest', { examples: CHAT_EXAMPLES }) body: ChatAskRequest,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const prepared = await this.chat.prepareChat(principal.keyId, collectionAccess(principal), body);
    await this.streams.run(req, res, async (stream) => {
      try {
        await this.chat.streamChat(prepared, stream);
      } catch (error) {
        this.chat.reportUnexpected(error, stream);
      }
    });
  }

  @Post('general')
  @ApiOperation({
    summary: 'Answer the question of a "not found" answer from the model’s general knowledge',
    description: `Only after an answer with notFound: true; no retrieval, no citations. ${EVENTS}`,
  })
  @ValidEventStream(CHAT_EVENTS, 'The event stream (source: general-knowledge)')
  @ApiNotFoundResponse({ description: 'Unknown conversation or message' })
  @ApiConflictResponse({ description: 'The message is not a "not found" answer, or was already answered' })
  @ApiServiceUnavailableResponse({ description: 'No language model is configured' })
  async general(
    @ValidBody(generalKnowledgeRequestSchema, 'GeneralKnowledgeRequest') body: GeneralKnowledgeRequest,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const prepared = await this.chat.prepareGeneral(principal.keyId, body);
    await this.streams.run(req, res, async (stream) => {
      try {
        await this.chat.streamGeneral(prepared, stream);
      } catch (error) {
        this.chat.reportUnexpected(error, stream);
      }
    });
  }
}

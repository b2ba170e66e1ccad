import { Controller, Get, HttpCode, Logger, Post, Req, Res, UseFilters } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import {
  openAiChatCompletionSchema,
  openAiChatRequestSchema,
  openAiModelListSchema,
  sourcesBlock,
} from '@lumina/shared';
import type {
  ChatErrorCode,
  OpenAiChatCompletion,
  OpenAiChatCompletionChunk,
  OpenAiChatRequest,
  OpenAiModelList,
} from '@lumina/shared';
import type { Request, Response } from 'express';
import { ValidBody, ValidResponse } from '../../common/validation/zod-contract';
import { UNEXPECTED_ERROR_MESSAGE } from '../../common/errors/api-error.filter';
import { collectionAccess, CurrentPrincipal } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { ChatStreams } from '../chat/chat-streams';
import { ChatAnswerFailed } from '../chat/chat-answer';
import { HeldWork } from '../chat/held-work';
import { OpenAiEventStream } from './openai-event-stream';
import { openAiError, OpenAiErrorFilter } from './openai-error.filter';
import { completionContent, luminaField, OpenAiChatService, usageOf } from './openai-chat.service';
import type { PreparedCompletion } from './openai-chat.service';

/** The status a failed answer is reported with when nothing was sent yet. */
const FAILED_STATUS: Record<ChatErrorCode | 'incomplete', number> = {
  llm_timeout: 504,
  llm_failed: 502,
  search_failed: 503,
  server_restarting: 503,
  internal: 500,
  incomplete: 500,
};

const COMPLETIONS =
  'The last user message is the question; earlier user and assistant messages are the conversation (the ' +
  'question is rewritten with them as in POST /chat, and a request that resends a conversation this key ' +
  'had here continues it). System and developer messages are ignored: the answer follows Lumina’s own ' +
  'prompt. `temperature`, `top_p`, `max_tokens`, `seed`, `stop`, penalties and any unknown field are ' +
  'accepted and ignored. Tools, functions, images, audio and `n` > 1 are a 400 with the reason. The ' +
  'content is the answer with its `[n]` markers, then a **Sources** list; the `lumina` field gives the ' +
  'citations, `notFound`, the message id and its trace. With `stream: true`: OpenAI chat.completion.chunk ' +
  'events (the last one carries `lumina`), then `data: [DONE]`; their contents concatenate to the ' +
  'non-streamed content. Errors: `{ error: { message, type, code } }`.';

/** OpenAI-compatible endpoints, so chat front ends built on the `openai` client can ask Lumina. */
@ApiTags('openai')
@Controller('v1')
@UseFilters(OpenAiErrorFilter)
export class OpenAiController {
  private readonly logger = new Logger(OpenAiController.name);

  constructor(
    private readonly completions: OpenAiChatService,
    private readonly streams: ChatStreams,
  ) {}

  @Get('models')
  @ApiOperation({
    summary: 'The models a key may ask (OpenAI format)',
    description: '`lumina` searches every collection the key may read; `lumina:<slug>` one collection.',
  })
  @ValidResponse(openAiModelListSchema, 'OpenAiModelList', 'The models')
  @ApiUnauthorizedResponse({ description: 'No or a wrong API key (Authorization: Bearer <key>)' })
  models(@CurrentPrincipal() principal: Principal): Promise<OpenAiModelList> {
    return this.completions.models(collectionAccess(principal));
  }

  @Post('chat/completions')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Ask a question as an OpenAI chat completion (streamed or not)',
    description: COMPLETIONS,
  })
  @ValidResponse(openAiChatCompletionSchema, 'OpenAiChatCompletion', 'The answer (or, streamed, its chunks)')
  @ApiBadRequestResponse({ description: 'No question, tools, images, n > 1, malformed messages or settings' })
  @ApiNotFoundResponse({ description: 'An unknown model (or a collection the key may not read)' })
  async complete(
    @ValidBody(openAiChatRequestSchema, 'OpenAiChatRequest') body: OpenAiChatRequest,
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const prepared = await this.completions.prepare(principal.keyId, collectionAccess(principal), body);
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    if (prepared.stream) {
      await this.streams.runOn(new OpenAiEventStream(request, response), (stream) =>
        this.streamed(prepared, stream, id, created),
      );
      return;
    }
    await this.streams.runOn(HeldWork.forResponse(response), async (held) => {
      try {
        const result = await this.completions.complete(prepared, held.signal);
        const completion: OpenAiChatCompletion = {
          id,
          object: 'chat.completion',
          created,
          model: prepared.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: completionContent(result), refusal: null },
              finish_reason: 'stop',
              logprobs: null,
            },
          ],
          usage: usageOf(result),
          lumina: luminaField(result),
        };
        response.status(200).json(completion);
      } catch (error) {
        const { status, message, code } = this.failure(error);
        if (!response.headersSent) response.status(status).json(openAiError(status, message, code));
      }
    });
  }

  private async streamed(
    prepared: PreparedCompletion,
    stream: OpenAiEventStream,
    id: string,
    created: number,
  ): Promise<void> {
    const chunk = (
      delta: OpenAiChatCompletionChunk['choices'][number]['delta'],
      more: Partial<OpenAiChatCompletionChunk> = {},
    ): OpenAiChatCompletionChunk => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model: prepared.model,
      choices: [{ index: 0, delta, finish_reason: null, logprobs: null }],
      ...more,
    });
    stream.chunk(chunk({ role: 'assistant', content: '' }));
    try {
      const result = await this.completions.complete(prepared, stream.signal, (text) =>
        stream.chunk(chunk({ content: text })),
      );
      const sources = sourcesBlock(result.citations);
      if (sources) stream.chunk(chunk({ content: sources }));
      stream.chunk({
        ...chunk({}),
        choices: [{ index: 0, delta: {}, finish_reason: 'stop', logprobs: null }],
        lumina: luminaField(result),
      });
      if (prepared.includeUsage) stream.chunk({ ...chunk({}), choices: [], usage: usageOf(result) });
      stream.done();
    } catch (error) {
      const { status, message, code } = this.failure(error);
      stream.fail(openAiError(status, message, code));
    }
  }

  /** How a failed answer is reported: the chat's error code and sentence, or a fixed one for a bug. */
  private failure(error: unknown): { status: number; message: string; code: string } {
    if (error instanceof ChatAnswerFailed) {
      return { status: FAILED_STATUS[error.code], message: error.message, code: error.code };
    }
    this.logger.error({ msg: 'completion failed', err: error });
    return { status: 500, message: UNEXPECTED_ERROR_MESSAGE, code: 'internal' };
  }
}

import { Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { feedbackInputSchema, feedbackSchema } from '@lumina/shared';
import type { Feedback, FeedbackInput } from '@lumina/shared';
import { ValidBody, ValidResponse } from '../../common/validation/zod-contract';
import { CurrentPrincipal } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { FeedbackService } from './feedback.service';

const uuid = new ParseUUIDPipe({ errorHttpStatusCode: 400 });
const NOT_FOUND =
  'Unknown message, one of another API key’s conversation, or (GET, DELETE) no feedback from this key';

/** An answer's rating by the key of its conversation. */
@ApiTags('feedback')
@Controller('messages')
export class MessageFeedbackController {
  constructor(private readonly feedback: FeedbackService) {}

  @Post(':id/feedback')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rate an answer (a new rating replaces this key’s earlier one)',
    description:
      'Thumbs up or down, with reasons for a rating down and a note. Only complete answers are rated; ' +
      'wrongly_refused goes with an answer that said the documents do not answer, should_have_refused ' +
      'with one that answered.',
  })
  @ValidResponse(feedbackSchema, 'Feedback')
  @ApiBadRequestResponse({
    description:
      'Unknown reason, a note over 2,000 characters, reasons with a rating up, a question or an ' +
      'answer that is not complete, or a refusal reason that does not fit the answer',
  })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  rate(
    @CurrentPrincipal() principal: Principal,
    @Param('id', uuid) id: string,
    @ValidBody(feedbackInputSchema, 'FeedbackInput') body: FeedbackInput,
  ): Promise<Feedback> {
    return this.feedback.rate(principal.keyId, id, body);
  }

  @Get(':id/feedback')
  @ApiOperation({ summary: 'This key’s rating of an answer' })
  @ValidResponse(feedbackSchema, 'Feedback')
  @ApiNotFoundResponse({ description: NOT_FOUND })
  find(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string): Promise<Feedback> {
    return this.feedback.find(principal.keyId, id);
  }

  @Delete(':id/feedback')
  @HttpCode(204)
  @ApiOperation({ summary: 'Withdraw this key’s rating of an answer' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async remove(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string): Promise<void> {
    await this.feedback.remove(principal.keyId, id);
  }
}

import { Controller, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import {
  feedbackDailyQuerySchema,
  feedbackDailySchema,
  feedbackEntrySchema,
  feedbackSchema,
  feedbackToBankRequestSchema,
  feedbackToBankResultSchema,
  listFeedbackQuerySchema,
  pageOf,
} from '@lumina/shared';
import type {
  Feedback,
  FeedbackDaily,
  FeedbackDailyQuery,
  FeedbackEntry,
  FeedbackToBankRequest,
  FeedbackToBankResult,
  ListFeedbackQuery,
  Page,
} from '@lumina/shared';
import { ValidBody, ValidQuery, ValidResponse } from '../../common/validation/zod-contract';
import { collectionAccess, CurrentPrincipal } from '../auth/principal';
import type { Principal } from '../auth/principal';
import { FeedbackReviewService } from './feedback-review.service';

const uuid = new ParseUUIDPipe({ errorHttpStatusCode: 400 });
const entryPage = pageOf(feedbackEntrySchema);

/** The review queue of ratings, for admins and the write holders of the answers' collections. */
@ApiTags('feedback')
@Controller('feedback')
export class FeedbackController {
  constructor(private readonly review: FeedbackReviewService) {}

  @Get()
  @ApiOperation({
    summary: 'The review queue: ratings with their question, answer, cited passages and trace',
    description:
      'Most recently rated first. An admin key sees every rating; a user key those of answers that ' +
      'searched only collections it holds a write grant on.',
  })
  @ValidResponse(entryPage, 'FeedbackEntryPage')
  list(
    @CurrentPrincipal() principal: Principal,
    @ValidQuery(listFeedbackQuerySchema) query: ListFeedbackQuery,
  ): Promise<Page<FeedbackEntry>> {
    return this.review.list(collectionAccess(principal), query);
  }

  @Get('daily')
  @ApiOperation({
    summary: "Each day's answers, refusals and ratings (UTC), for the Feedback page's chart",
    description:
      'The last `days` days (default 30, at most 366), oldest first and zero-filled. Answers are the ' +
      'completed answers with a trace; notFound those that said the documents do not answer; up and ' +
      'down the ratings given or last changed that day. The same answers as the queue: an admin key ' +
      'counts every one, a user key those that searched only collections it holds a write grant on.',
  })
  @ValidResponse(feedbackDailySchema, 'FeedbackDaily')
  daily(
    @CurrentPrincipal() principal: Principal,
    @ValidQuery(feedbackDailyQuerySchema) query: FeedbackDailyQuery,
  ): Promise<FeedbackDaily> {
    return this.review.daily(collectionAccess(principal), query);
  }

  @Post('to-bank')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Turn ratings into items of a question bank (all or nothing)',
    description:
      'Each item takes the question, is out of scope for should_have_refused and in scope for ' +
      'wrongly_refused (the others need inScope), has the confirmed expected sources or else the ' +
      'passages the answer cited, and the note as expected answer. The ratings are marked reviewed.',
  })
  @ValidResponse(feedbackToBankResultSchema, 'FeedbackToBankResult')
  @ApiBadRequestResponse({ description: 'An entry without inScope where it is needed, or an unknown source' })
  @ApiForbiddenResponse({ description: 'A key that may read the bank’s collection but not manage it' })
  @ApiNotFoundResponse({ description: 'Unknown bank, or a rating this key may not review' })
  toBank(
    @CurrentPrincipal() principal: Principal,
    @ValidBody(feedbackToBankRequestSchema, 'FeedbackToBankRequest') body: FeedbackToBankRequest,
  ): Promise<FeedbackToBankResult> {
    return this.review.toBank(collectionAccess(principal), body);
  }

  @Post(':id/review')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mark a rating reviewed without making a bank item of it' })
  @ValidResponse(feedbackSchema, 'Feedback')
  @ApiNotFoundResponse({ description: 'Unknown rating, or one this key may not review' })
  markReviewed(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string): Promise<Feedback> {
    return this.review.markReviewed(collectionAccess(principal), id);
  }
}

/** Ratings of answers, the review queue, its daily chart, and bank items made from ratings. */
import {
  feedbackDailySchema,
  feedbackEntrySchema,
  feedbackSchema,
  feedbackToBankResultSchema,
  pageOf,
} from '@lumina/shared';
import type {
  Feedback,
  FeedbackDaily,
  FeedbackDailyQuery,
  FeedbackEntry,
  FeedbackInput,
  FeedbackToBankRequest,
  FeedbackToBankResult,
  ListFeedbackQuery,
  Page,
} from '@lumina/shared';
import { API_OPERATIONS } from '../api-operations';
import { parsedBy } from './read';
import { queryOf, type RequestOptions, type Transport } from './transport';

const feedback = parsedBy(feedbackSchema);
const entryPage = parsedBy(pageOf(feedbackEntrySchema));
const daily = parsedBy(feedbackDailySchema);
const toBankResult = parsedBy(feedbackToBankResultSchema);

export function feedbackApi(http: Transport) {
  const ops = API_OPERATIONS;
  return {
    /** POST /messages/:id/feedback: rate an answer of one of this key's conversations (replaces a rating). */
    rateAnswer(messageId: string, input: FeedbackInput, { signal }: RequestOptions = {}): Promise<Feedback> {
      return http.json(
        ops.rateAnswer,
        { params: { id: messageId }, body: input, signal },
        feedback,
        'expected the rating',
      );
    },

    withdrawRating(messageId: string, { signal }: RequestOptions = {}): Promise<void> {
      return http.noContent(ops.withdrawRating, { params: { id: messageId }, signal });
    },

    /** GET /feedback: a page of the review queue, most recently rated first. */
    listFeedback(
      query: ListFeedbackQuery = {},
      { signal }: RequestOptions = {},
    ): Promise<Page<FeedbackEntry>> {
      return http.json(
        ops.listFeedback,
        { query: queryOf(query), signal },
        entryPage,
        'expected a page of feedback',
      );
    },

    /** GET /feedback/daily: each day's answers, refusals and ratings, oldest first. */
    feedbackDaily(query: FeedbackDailyQuery = {}, { signal }: RequestOptions = {}): Promise<FeedbackDaily> {
      return http.json(
        ops.feedbackDaily,
        { query: queryOf(query), signal },
        daily,
        "expected each day's counts",
      );
    },

    /** POST /feedback/to-bank: ratings become items of one bank, all or nothing. */
    feedbackToBank(
      request: FeedbackToBankRequest,
      { signal }: RequestOptions = {},
    ): Promise<FeedbackToBankResult> {
      return http.json(
        ops.feedbackToBank,
        { body: request, signal },
        toBankResult,
        'expected the items made',
      );
    },

    markFeedbackReviewed(id: string, { signal }: RequestOptions = {}): Promise<Feedback> {
      return http.json(ops.markFeedbackReviewed, { params: { id }, signal }, feedback, 'expected the rating');
    },
  };
}

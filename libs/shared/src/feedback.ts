import { answerabilityVerdictSchema } from './answerability';
import { citationSchema, messageStatusSchema } from './chat';
import {
  objectError,
  oneOf,
  pageQuerySchema,
  queryBool,
  queryInt,
  text,
  typeError,
  uuid,
  z,
} from './contract/zod';
import { expectedSourceSchema, MAX_QUESTION_CHARS, questionBankItemInputSchema } from './question-banks';
import { searchSettingsSchema } from './settings';

/**
 * Why an answer was rated down:
 * - `wrong`: the answer is wrong;
 * - `incomplete`: it leaves out part of the answer;
 * - `wrong_citation`: a citation does not say what the sentence claims;
 * - `should_have_refused`: it answered something the documents do not say;
 * - `wrongly_refused`: it said the documents do not answer, and they do;
 * - `outdated`: it was true once.
 */
export const FEEDBACK_REASONS = [
  'wrong',
  'incomplete',
  'wrong_citation',
  'should_have_refused',
  'wrongly_refused',
  'outdated',
] as const;
export type FeedbackReason = (typeof FEEDBACK_REASONS)[number];

export function isFeedbackReason(value: string): value is FeedbackReason {
  return (FEEDBACK_REASONS as readonly string[]).includes(value);
}

export const FEEDBACK_RATINGS = ['up', 'down'] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/** The longest note a rating may carry. */
export const MAX_FEEDBACK_NOTE_CHARS = 2000;
/** Feedback entries sent to a bank in one call. */
export const MAX_FEEDBACK_TO_BANK = 100;

const timestamp = z.string().meta({ format: 'date-time' });

/** Body of POST /messages/:id/feedback: a new rating replaces the key's earlier one. */
export const feedbackInputSchema = z
  .strictObject(
    {
      rating: oneOf('rating', FEEDBACK_RATINGS),
      reasons: z
        .array(oneOf('reason', FEEDBACK_REASONS), {
          error: typeError('reasons', `reasons must be an array of: ${FEEDBACK_REASONS.join(', ')}`),
        })
        .max(FEEDBACK_REASONS.length, { error: 'reasons must name each reason at most once' })
        .optional()
        .meta({ description: 'Why the answer is rated down (only with rating "down")' }),
      note: text('note', MAX_FEEDBACK_NOTE_CHARS).optional().meta({
        description: 'What the answer should have said; the expected answer of a bank item made from it',
      }),
    },
    { error: objectError('the body must be an object: { rating, reasons?, note? }') },
  )
  .meta({
    example: { rating: 'down', reasons: ['wrong'], note: 'The standby is promoted with pg_ctl promote' },
  });
export type FeedbackInput = z.infer<typeof feedbackInputSchema>;

/** A rating of an answer, as its key sees it. */
export const feedbackSchema = z.object({
  id: z.string(),
  messageId: z.string(),
  rating: z.enum(FEEDBACK_RATINGS),
  reasons: z.array(z.enum(FEEDBACK_REASONS)),
  note: z.string().nullable(),
  /** The collections the answer searched. */
  collectionIds: z.array(z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
  /** When a reviewer took it into a bank or marked it reviewed; null until then. */
  reviewedAt: timestamp.nullable(),
});
export type Feedback = z.infer<typeof feedbackSchema>;

/** A passage the answer cited, with its text (null when the passage was deleted since). */
export const feedbackCitedPassageSchema = citationSchema
  .pick({ marker: true, chunkId: true, documentId: true, title: true, headingPath: true })
  .extend({ text: z.string().nullable() });
export type FeedbackCitedPassage = z.infer<typeof feedbackCitedPassageSchema>;

/** How many of the trace's top passages an entry shows and proposes as expected sources. */
export const FEEDBACK_TOP_PASSAGES = 5;

/** One of the passages the search ranked highest for the answer (null title/text: deleted since). */
export const feedbackTopPassageSchema = z.object({
  /** 1-based rank in the answer's retrieved list. */
  rank: z.number(),
  chunkId: z.string(),
  documentId: z.string(),
  title: z.string().nullable(),
  headingPath: z.array(z.string()),
  text: z.string().nullable(),
  score: z.number(),
  /** Whether the answer cited it. */
  cited: z.boolean(),
});
export type FeedbackTopPassage = z.infer<typeof feedbackTopPassageSchema>;

/** One entry of the review queue (GET /feedback). */
export const feedbackEntrySchema = z.object({
  feedback: feedbackSchema,
  /** The question the answer replied to. */
  question: z.string().nullable(),
  /** The query searched (the question rewritten to stand alone); null without a trace. */
  standaloneQuery: z.string().nullable(),
  answer: z.object({
    id: z.string(),
    conversationId: z.string(),
    content: z.string(),
    status: messageStatusSchema,
    notFound: z.boolean(),
    citations: z.array(citationSchema),
  }),
  citedPassages: z.array(feedbackCitedPassageSchema),
  /** The trace's top passages (at most FEEDBACK_TOP_PASSAGES); empty without a search. */
  topPassages: z.array(feedbackTopPassageSchema),
  /**
   * Expected sources proposed for a bank item: the cited passages that still exist, then the trace's top
   * passages, at most FEEDBACK_TOP_PASSAGES in all (confirm or change them before sending).
   */
  proposedSources: z.array(z.object({ chunkId: z.string(), documentId: z.string() })),
  /** The resolved search settings of the answer; null for general knowledge or without a trace. */
  settings: searchSettingsSchema.nullable(),
  /** GET this for the whole retrieval trace (admin or the conversation's key). */
  traceUrl: z.string(),
  /** The answerability model's verdict, when one was made. */
  answerability: answerabilityVerdictSchema.nullable(),
  reviewed: z.boolean(),
  /** The bank item made from it (null when none was, or it was deleted since). */
  bankItem: z.object({ id: z.string(), bankId: z.string() }).nullable(),
});
export type FeedbackEntry = z.infer<typeof feedbackEntrySchema>;

const dateQuery = (field: string) =>
  z
    .string({ error: `${field} must be a date or a date-time (ISO 8601)` })
    .check(
      z.refine((value) => /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value)), {
        error: `${field} must be a date or a date-time (ISO 8601)`,
      }),
    )
    .meta({ format: 'date-time' });

/** GET /feedback: a page of the review queue, newest first. */
export const listFeedbackQuerySchema = pageQuerySchema.extend({
  rating: oneOf('rating', FEEDBACK_RATINGS).optional(),
  reason: oneOf('reason', FEEDBACK_REASONS)
    .optional()
    .meta({ description: 'Only feedback giving this reason' }),
  from: dateQuery('from').optional().meta({ description: 'Rated at or after this time' }),
  to: dateQuery('to').optional().meta({ description: 'Rated before this time' }),
  collectionId: uuid('collectionId', 'a collection id')
    .optional()
    .meta({ description: 'Only answers that searched this collection' }),
  unreviewed: queryBool('unreviewed').optional().meta({ description: 'true: only what is not reviewed yet' }),
});
export type ListFeedbackQuery = z.infer<typeof listFeedbackQuerySchema>;

/** GET /feedback/daily: per-day signals of the last `days` days (UTC). */
export const feedbackDailyQuerySchema = z.strictObject({
  days: queryInt('days', 1, 366)
    .optional()
    .meta({ description: 'How many days, today included (default 30)' }),
  collectionId: uuid('collectionId', 'a collection id')
    .optional()
    .meta({ description: 'Only answers that searched this collection' }),
});
export type FeedbackDailyQuery = z.infer<typeof feedbackDailyQuerySchema>;

/** One day's answers, refusals and ratings. */
export const feedbackDaySchema = z.object({
  /** The UTC day, YYYY-MM-DD. */
  day: z.string(),
  /** Answers completed that day. */
  answers: z.number(),
  /** Of them, "the documents don't say". */
  notFound: z.number(),
  /** Ratings given (or last changed) that day. */
  up: z.number(),
  down: z.number(),
});
export type FeedbackDay = z.infer<typeof feedbackDaySchema>;

/** Every day of the window, oldest first, zero-filled. */
export const feedbackDailySchema = z.object({ days: z.array(feedbackDaySchema) });
export type FeedbackDaily = z.infer<typeof feedbackDailySchema>;

/** One feedback entry to become a bank item. */
export const feedbackToBankEntrySchema = z.strictObject(
  {
    feedbackId: uuid('feedbackId', 'a feedback id'),
    inScope: z.boolean({ error: 'inScope must be true or false' }).optional().meta({
      description:
        'Default false for should_have_refused, true for wrongly_refused; required for the other feedback',
    }),
    expectedSources: z
      .array(expectedSourceSchema, { error: 'expectedSources must be an array' })
      .max(200, { error: 'expectedSources must hold at most 200 sources' })
      .optional()
      .meta({ description: "Confirmed sources; absent: the answer's cited passages (in scope only)" }),
    expectedAnswer: text('expectedAnswer', 20000)
      .optional()
      .meta({ description: "Absent: the feedback's note" }),
    question: text('question', MAX_QUESTION_CHARS)
      .optional()
      .meta({ description: 'Absent: the question the answer replied to' }),
    language: questionBankItemInputSchema.shape.language,
    tags: questionBankItemInputSchema.shape.tags,
    difficulty: questionBankItemInputSchema.shape.difficulty,
  },
  {
    error: objectError(
      'each entry must be an object: { feedbackId, inScope?, expectedSources?, expectedAnswer?, question?, language?, tags?, difficulty? }',
    ),
  },
);
export type FeedbackToBankEntry = z.infer<typeof feedbackToBankEntrySchema>;

/** Body of POST /feedback/to-bank: several entries become items of one bank, all or nothing. */
export const feedbackToBankRequestSchema = z
  .strictObject(
    {
      bankId: uuid('bankId', 'a question bank id'),
      entries: z
        .array(feedbackToBankEntrySchema, { error: typeError('entries', 'entries must be an array') })
        .min(1, { error: 'entries must hold at least one entry' })
        .max(MAX_FEEDBACK_TO_BANK, { error: `entries must hold at most ${MAX_FEEDBACK_TO_BANK} entries` }),
    },
    { error: objectError('the body must be an object: { bankId, entries }') },
  )
  .meta({
    example: {
      bankId: '3f0c9d2e-5b1a-4c7e-9f6d-2a8b7c6d5e4f',
      entries: [{ feedbackId: '9b2e4c1a-7d3f-4e8a-b5c6-1f2a3b4c5d6e', inScope: true }],
    },
  });
export type FeedbackToBankRequest = z.infer<typeof feedbackToBankRequestSchema>;

/** The answer of POST /feedback/to-bank: the items written, in the order of the entries. */
export const feedbackToBankResultSchema = z.object({
  items: z.array(z.object({ feedbackId: z.string(), itemId: z.string() })),
});
export type FeedbackToBankResult = z.infer<typeof feedbackToBankResultSchema>;

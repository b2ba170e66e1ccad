import { oneOf, pageQuerySchema, uuid, z } from './contract/zod';

/**
 * Learned rerankers fitted on a question bank: what an admin starts (POST /question-banks/:id/rerankers),
 * lists (GET /rerankers) and switches on (POST /rerankers/:id/activate). The active one reorders the
 * candidates of every search with `enableRerank`, offline, unless a configured reranker (a /v1/rerank
 * endpoint or the LLM) measured better on the bank.
 */

/** How the model is fitted: a linear model on pairs of candidates, or gradient-boosted trees (LambdaMART). */
export const RERANKER_LEARNERS = ['linear', 'lambdamart'] as const;
export type RerankerLearner = (typeof RERANKER_LEARNERS)[number];

/**
 * Fewest in-scope questions with expected sources a bank needs before a reranker is fitted on it (a fit
 * then also needs that many whose expected source the search finds among its candidates).
 */
export const RERANKER_MIN_QUESTIONS = 10;

export const RERANKER_FIT_STATUSES = ['queued', 'fitting', 'ready', 'failed'] as const;
export type RerankerFitStatus = (typeof RERANKER_FIT_STATUSES)[number];

/** Which reranker serves `enableRerank` on this server. */
/** `cross-encoder`: a cross-encoder in process (RERANK_CROSS_ENCODER_DIR). */
export const RERANKER_SOURCES = ['endpoint', 'llm', 'fitted', 'file', 'cross-encoder'] as const;
export type RerankerSource = (typeof RERANKER_SOURCES)[number];

const timestamp = z.string().meta({ format: 'date-time' });

/**
 * How the fitted model measured on its own bank, by k-fold cross-validation: each fold's questions are
 * reranked by a model fitted on the other folds, and nDCG@10 over the search's candidates is compared
 * with the search's own order (paired randomisation test).
 */
export const rerankerMeasurementSchema = z.object({
  folds: z.number(),
  /** Questions measured: in scope, with an expected source among the search's candidates. */
  queries: z.number(),
  /** Questions sharing an expected source were kept in one fold (so no credit for remembering a source). */
  groupedBySource: z.boolean(),
  ndcgBefore: z.number(),
  ndcgAfter: z.number(),
  p: z.number(),
  /**
   * The configured reranker (a /v1/rerank endpoint or the LLM) on the same questions and candidates, when
   * one exists: its nDCG@10, the paired test against the learned model's held-out order, and its calls.
   */
  configured: z.object({ model: z.string(), ndcg: z.number(), p: z.number(), calls: z.number() }).nullable(),
  /** Which of the two the bank's figures prefer for `enableRerank`. */
  preferred: z.enum(['learned', 'configured']),
});
export type RerankerMeasurement = z.infer<typeof rerankerMeasurementSchema>;

export const rerankerModelSummarySchema = z.object({
  id: z.string(),
  /** The model's name in every trace: `ltr:<version>`. */
  version: z.string(),
  bankId: z.string().nullable(),
  bankName: z.string().nullable(),
  /** Its bank's collection: searches of that collection alone use it while it is active. */
  collectionId: z.string(),
  status: z.enum(RERANKER_FIT_STATUSES),
  learner: z.enum(RERANKER_LEARNERS),
  /** Candidates per question the features were read over (the search's candidateK). */
  candidateK: z.number(),
  /** This model serves `enableRerank` in its collection (at most one is active per collection). */
  active: z.boolean(),
  /** Switch it on when the fit is done (unless it measured worse than no reranking). */
  activateWhenReady: z.boolean(),
  error: z.string().nullable(),
  /** Why a finished fit was not switched on, when it was asked to be. */
  note: z.string().nullable(),
  measurement: rerankerMeasurementSchema.nullable(),
  /** Questions and candidate pairs the final model was fitted on. */
  training: z.object({ queries: z.number(), pairs: z.number() }).nullable(),
  /** The features the model leans on most: linear weights, or the trees' split counts. */
  importance: z.array(z.object({ feature: z.string(), value: z.number() })),
  createdAt: timestamp,
  startedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
});
export type RerankerModelSummary = z.infer<typeof rerankerModelSummarySchema>;

/** Body of POST /question-banks/:id/rerankers. */
export const fitRerankerRequestSchema = z.strictObject({
  learner: oneOf('learner', RERANKER_LEARNERS)
    .optional()
    .meta({
      description:
        'linear (the default): a linear model fitted on pairs of candidates (it measured best on questions ' +
        'about documents the fit never saw); lambdamart: gradient-boosted trees.',
    }),
  activate: z.boolean({ error: 'activate must be true or false' }).optional().meta({
    description:
      'Switch the model on when it is fitted (default true; not if it measured worse than no reranking).',
  }),
});
export type FitRerankerRequest = z.infer<typeof fitRerankerRequestSchema>;

/** GET /rerankers: a page of fitted models, newest first, optionally of one bank. */
export const listRerankersQuerySchema = pageQuerySchema.extend({
  bankId: uuid('bankId', 'a question bank id')
    .optional()
    .meta({ description: 'Only the models fitted on this bank' }),
});
export type ListRerankersQuery = z.infer<typeof listRerankersQuerySchema>;

/** GET /rerankers/active: what a search of this collection uses (absent: a search of every collection). */
export const activeRerankerQuerySchema = z.strictObject({
  collectionId: uuid('collectionId', 'a collection id').optional().meta({
    description: 'What a search of this collection alone uses; absent: a search of every collection',
  }),
});
export type ActiveRerankerQuery = z.infer<typeof activeRerankerQuerySchema>;

/** What serves `enableRerank` now (GET /rerankers/active and GET /health). */
export const activeRerankerSchema = z.object({
  /** The reranker's model id (`ltr:<version>` for a learned one), or null when none is configured. */
  model: z.string().nullable(),
  source: z.enum(RERANKER_SOURCES).nullable(),
  /** The fitted model's id when `source` is 'fitted'. */
  rerankerId: z.string().nullable(),
});
export type ActiveReranker = z.infer<typeof activeRerankerSchema>;

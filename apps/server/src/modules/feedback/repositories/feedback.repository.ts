import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type {
  AnswerabilityVerdict,
  Citation,
  FeedbackRating,
  FeedbackReason,
  MessageStatus,
  SearchSettings,
  TracePassage,
} from '@lumina/shared';
import { EntityManager } from 'typeorm';
import { DAILY_ANSWERS_SQL, DAILY_RATINGS_SQL } from './feedback-daily.sql';
import {
  ENTRIES_SQL,
  MARK_REVIEWED_SQL,
  PASSAGES_SQL,
  QUEUE_COUNT_SQL,
  QUEUE_PAGE_SQL,
} from './feedback-queue.sql';
import {
  ANSWER_OF_QUESTION_SQL,
  DELETE_KEY_FEEDBACK_SQL,
  KEY_FEEDBACK_SQL,
  UPSERT_FEEDBACK_SQL,
} from './feedback.sql';

/** A stored rating. */
export interface FeedbackRow {
  id: string;
  message_id: string;
  key_id: string;
  rating: FeedbackRating;
  reasons: FeedbackReason[];
  note: string | null;
  collection_ids: string[];
  created_at: Date;
  updated_at: Date;
  reviewed_at: Date | null;
}

/** A rating with its answer, question, trace and the bank item made from it. */
export interface FeedbackEntryRow extends FeedbackRow {
  conversation_id: string;
  answer: string;
  status: MessageStatus;
  not_found: boolean;
  citations: Citation[];
  question: string | null;
  standalone_query: string | null;
  settings: SearchSettings | null;
  answerability: AnswerabilityVerdict | null;
  /** The first passages of the trace's retrieved list. */
  top_retrieved: TracePassage[];
  item_id: string | null;
  item_bank_id: string | null;
}

export interface NewFeedback {
  messageId: string;
  keyId: string;
  rating: FeedbackRating;
  reasons: FeedbackReason[];
  note: string | null;
  collectionIds: string[];
}

/** Which feedback the review queue lists. */
export interface QueueFilter {
  rating?: FeedbackRating;
  reason?: FeedbackReason;
  from?: string;
  to?: string;
  collectionId?: string;
  unreviewed?: boolean;
  /** The collections the reader manages; null: every one (an admin). */
  manageable: string[] | null;
}

/** A stored passage as the queue shows it. */
export interface PassageRow {
  id: string;
  text: string;
  heading_path: string[];
  title: string;
}

/** Which answers and ratings the daily series counts. */
export interface DailyFilter {
  since: Date;
  collectionId?: string;
  manageable: string[] | null;
}

/** Ratings of answers, one per answer and key, and the review queue over them. */
@Injectable()
export class FeedbackRepository {
  constructor(@InjectEntityManager() private readonly manager: EntityManager) {}

  async upsert(feedback: NewFeedback): Promise<FeedbackRow> {
    const [row]: FeedbackRow[] = await this.manager.query(UPSERT_FEEDBACK_SQL, [
      feedback.messageId,
      feedback.keyId,
      feedback.rating,
      feedback.reasons,
      feedback.note,
      feedback.collectionIds,
    ]);
    return row;
  }

  async ofKey(messageId: string, keyId: string): Promise<FeedbackRow | null> {
    const rows: FeedbackRow[] = await this.manager.query(KEY_FEEDBACK_SQL, [messageId, keyId]);
    return rows[0] ?? null;
  }

  /** False when the key had no feedback on the message. */
  async deleteOfKey(messageId: string, keyId: string): Promise<boolean> {
    const rows: unknown[] = await this.manager.query(DELETE_KEY_FEEDBACK_SQL, [messageId, keyId]);
    return rows.length > 0;
  }

  /** The newest answer to a question, or null while there is none. */
  async answerOf(questionId: string): Promise<{ id: string; status: MessageStatus } | null> {
    const rows: { id: string; status: MessageStatus }[] = await this.manager.query(ANSWER_OF_QUESTION_SQL, [
      questionId,
    ]);
    return rows[0] ?? null;
  }

  /** A page of the queue and how many entries the filters find. */
  async queue(filter: QueueFilter, offset: number, limit: number): Promise<[FeedbackEntryRow[], number]> {
    const params = [
      filter.rating ?? null,
      filter.reason ?? null,
      filter.from ?? null,
      filter.to ?? null,
      filter.collectionId ?? null,
      filter.unreviewed ?? false,
      filter.manageable,
    ];
    const [rows, [{ total }]] = await Promise.all([
      this.manager.query(QUEUE_PAGE_SQL, [...params, limit, offset]) as Promise<FeedbackEntryRow[]>,
      this.manager.query(QUEUE_COUNT_SQL, params) as Promise<{ total: number }[]>,
    ]);
    return [rows, total];
  }

  async entries(ids: readonly string[]): Promise<FeedbackEntryRow[]> {
    if (ids.length === 0) return [];
    return this.manager.query(ENTRIES_SQL, [ids]);
  }

  async passages(chunkIds: readonly string[]): Promise<Map<string, PassageRow>> {
    if (chunkIds.length === 0) return new Map();
    const rows: PassageRow[] = await this.manager.query(PASSAGES_SQL, [chunkIds]);
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Per UTC day (YYYY-MM-DD) since `filter.since`: answers and refusals, ratings up and down. */
  async daily(filter: DailyFilter): Promise<{
    answers: { day: string; answers: number; not_found: number }[];
    ratings: { day: string; up: number; down: number }[];
  }> {
    const params = [filter.since, filter.collectionId ?? null, filter.manageable];
    const [answers, ratings] = await Promise.all([
      this.manager.query(DAILY_ANSWERS_SQL, params),
      this.manager.query(DAILY_RATINGS_SQL, params),
    ]);
    return { answers, ratings };
  }

  /** Marks feedback reviewed; inside a transaction when given its manager. */
  async markReviewed(ids: readonly string[], manager: EntityManager = this.manager): Promise<void> {
    if (ids.length === 0) return;
    await manager.query(MARK_REVIEWED_SQL, [ids]);
  }
}

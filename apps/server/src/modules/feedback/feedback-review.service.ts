import { Injectable } from '@nestjs/common';
import type {
  ExpectedSource,
  Feedback,
  FeedbackDaily,
  FeedbackDailyQuery,
  FeedbackEntry,
  FeedbackToBankEntry,
  FeedbackToBankRequest,
  FeedbackToBankResult,
  ListFeedbackQuery,
  Page,
} from '@lumina/shared';
import { InvalidRequestError, NotFoundError } from '../../common/errors/domain-errors';
import { pageOf, pageWindow } from '../../common/pagination/pagination';
import { canWrite } from '../auth/principal';
import type { CollectionAccess } from '../auth/principal';
import { assertManagesIn, manageableIds } from '../collections/collection-work.guard';
import { QuestionBankItemService } from '../question-bank/question-bank-item.service';
import { QuestionBankService } from '../question-bank/question-bank.service';
import type { NewQuestionItem } from '../question-bank/repositories/question-bank-item.repository';
import { entryChunkIds, toEntry, toFeedback } from './feedback-view';
import { FeedbackRepository } from './repositories/feedback.repository';
import type { FeedbackEntryRow } from './repositories/feedback.repository';

/**
 * The review queue: admins see every rating; a user key sees the ratings of answers that searched only
 * collections it holds a write grant on (whose banks it manages). A reviewer turns entries into bank
 * items, or marks them reviewed.
 */
@Injectable()
export class FeedbackReviewService {
  constructor(
    private readonly feedback: FeedbackRepository,
    private readonly banks: QuestionBankService,
    private readonly items: QuestionBankItemService,
  ) {}

  async list(access: CollectionAccess, query: ListFeedbackQuery): Promise<Page<FeedbackEntry>> {
    const window = pageWindow(query);
    const manageable = manageableIds(access);
    if (manageable !== null && manageable.length === 0) return pageOf([], 0, window);
    const [rows, total] = await this.feedback.queue(
      {
        rating: query.rating,
        reason: query.reason,
        from: query.from,
        to: query.to,
        collectionId: query.collectionId,
        unreviewed: query.unreviewed,
        manageable,
      },
      window.offset,
      window.limit,
    );
    return pageOf(await this.withPassages(rows), total, window);
  }

  /**
   * Each of the last `days` UTC days, oldest first and zero-filled: answers, refusals and ratings of the
   * answers this reader may review (as the queue).
   */
  async daily(access: CollectionAccess, query: FeedbackDailyQuery, now = new Date()): Promise<FeedbackDaily> {
    const count = query.days ?? 30;
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const since = new Date(today - (count - 1) * DAY_MS);
    const days = Array.from({ length: count }, (_, index) => ({
      day: new Date(since.getTime() + index * DAY_MS).toISOString().slice(0, 10),
      answers: 0,
      notFound: 0,
      up: 0,
      down: 0,
    }));
    const manageable = manageableIds(access);
    if (manageable !== null && manageable.length === 0) return { days };
    const byDay = new Map(days.map((day) => [day.day, day]));
    const { answers, ratings } = await this.feedback.daily({
      since,
      collectionId: query.collectionId,
      manageable,
    });
    for (const row of answers) {
      const day = byDay.get(row.day);
      if (day) Object.assign(day, { answers: row.answers, notFound: row.not_found });
    }
    for (const row of ratings) {
      const day = byDay.get(row.day);
      if (day) Object.assign(day, { up: row.up, down: row.down });
    }
    return { days };
  }

  /** Marks one entry reviewed without making an item of it. */
  async markReviewed(access: CollectionAccess, id: string): Promise<Feedback> {
    await this.reviewable(access, [id], () => `feedback ${id}`);
    await this.feedback.markReviewed([id]);
    const [row] = await this.feedback.entries([id]);
    if (!row) throw new NotFoundError(`feedback ${id} not found`);
    return toFeedback(row);
  }

  /**
   * Entries become items of one bank, all or nothing: the question the answer replied to, in or out of
   * scope (out for should_have_refused, in for wrongly_refused, the reviewer's word for the rest), the
   * expected sources confirmed or else proposed from the passages the answer cited, and the note as
   * expected answer. Each item keeps its feedback, which is marked reviewed in the same transaction.
   */
  async toBank(access: CollectionAccess, request: FeedbackToBankRequest): Promise<FeedbackToBankResult> {
    assertManagesIn(access, await this.banks.collectionOf(request.bankId), `question bank ${request.bankId}`);

    const label = (index: number) => `entries[${index}]`;
    const ids = request.entries.map((entry) => entry.feedbackId);
    const repeated = ids.flatMap((id, index) =>
      ids.indexOf(id) !== index ? [`${label(index)}: feedback ${id} is named twice`] : [],
    );
    if (repeated.length) throw new InvalidRequestError(repeated);
    const rows = await this.reviewable(access, ids, (index) => `${label(index)}: feedback ${ids[index]}`);

    const problems: string[] = [];
    const items: NewQuestionItem[] = [];
    for (const [index, entry] of request.entries.entries()) {
      const row = rows[index];
      const inScope = entry.inScope ?? defaultScope(row);
      const question = entry.question?.trim() || row.question?.trim();
      if (inScope === undefined) {
        problems.push(
          `${label(index)}: inScope is required: feedback ${row.id} gives neither should_have_refused nor ` +
            'wrongly_refused, so say whether the documents answer the question',
        );
      }
      if (!question) {
        problems.push(`${label(index)}: the question of feedback ${row.id} no longer exists; give one`);
      }
      if (inScope === undefined || !question) continue;
      items.push({
        question,
        inScope,
        expectedAnswer: entry.expectedAnswer ?? row.note,
        expectedSources: await this.expectedSources(request.bankId, entry, row, inScope),
        language: entry.language,
        tags: entry.tags,
        difficulty: entry.difficulty,
        source: 'feedback',
        feedbackId: row.id,
        metadata: { reasons: row.reasons },
      });
    }
    if (problems.length) throw new InvalidRequestError(problems);

    const written = await this.items.createChecked(request.bankId, items, label, (manager) =>
      this.feedback.markReviewed(ids, manager),
    );
    return { items: written.map((item, index) => ({ feedbackId: ids[index], itemId: item.id })) };
  }

  /** The confirmed sources, or those proposed from the answer's cited passages (in scope only). */
  private async expectedSources(
    bankId: string,
    entry: FeedbackToBankEntry,
    row: FeedbackEntryRow,
    inScope: boolean,
  ): Promise<ExpectedSource[]> {
    if (entry.expectedSources !== undefined) return entry.expectedSources;
    if (!inScope) return [];
    const cited = [...new Set(row.citations.map((citation) => citation.chunkId))];
    return this.items.knownSources(
      bankId,
      cited.map((chunkId) => ({ chunkId })),
    );
  }

  /**
   * The entries, in the order of `ids`, if the reader may review each: an admin, or a write holder of
   * every collection the answer searched. Any other is a 404, as if it did not exist.
   */
  private async reviewable(
    access: CollectionAccess,
    ids: string[],
    name: (index: number) => string,
  ): Promise<FeedbackEntryRow[]> {
    const found = new Map((await this.feedback.entries(ids)).map((row) => [row.id, row]));
    const rows = ids.map((id) => found.get(id));
    const missing = rows.flatMap((row, index) =>
      row && mayReview(access, row) ? [] : [`${name(index)} not found`],
    );
    if (missing.length) throw new NotFoundError(missing);
    return rows as FeedbackEntryRow[];
  }

  private async withPassages(rows: FeedbackEntryRow[]): Promise<FeedbackEntry[]> {
    const passages = await this.feedback.passages([...new Set(rows.flatMap(entryChunkIds))]);
    return rows.map((row) => toEntry(row, passages));
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

function mayReview(access: CollectionAccess, row: FeedbackEntryRow): boolean {
  if (access.all) return true;
  return row.collection_ids.length > 0 && row.collection_ids.every((id) => canWrite(access, id));
}

/** Out of scope when it should have refused, in scope when it refused wrongly; else the reviewer says. */
function defaultScope(row: FeedbackEntryRow): boolean | undefined {
  if (row.reasons.includes('should_have_refused')) return false;
  if (row.reasons.includes('wrongly_refused')) return true;
  return undefined;
}

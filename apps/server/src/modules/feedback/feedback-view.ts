import { resolveSettings } from '@lumina/shared';
import type { Feedback, FeedbackEntry } from '@lumina/shared';
import type { FeedbackEntryRow, FeedbackRow } from './repositories/feedback.repository';

/** A stored rating as the API shows it. */
export function toFeedback(row: FeedbackRow): Feedback {
  return {
    id: row.id,
    messageId: row.message_id,
    rating: row.rating,
    reasons: row.reasons,
    note: row.note,
    collectionIds: row.collection_ids,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    reviewedAt: row.reviewed_at ? new Date(row.reviewed_at).toISOString() : null,
  };
}

/** A review-queue entry; `texts` holds the cited passages' text by chunk id. */
export function toEntry(row: FeedbackEntryRow, texts: ReadonlyMap<string, string>): FeedbackEntry {
  return {
    feedback: toFeedback(row),
    question: row.question,
    standaloneQuery: row.standalone_query,
    answer: {
      id: row.message_id,
      conversationId: row.conversation_id,
      content: row.answer,
      status: row.status,
      notFound: row.not_found,
      citations: row.citations,
    },
    citedPassages: row.citations.map((citation) => ({
      marker: citation.marker,
      chunkId: citation.chunkId,
      documentId: citation.documentId,
      title: citation.title,
      headingPath: citation.headingPath,
      text: texts.get(citation.chunkId) ?? null,
    })),
    // Stored with the settings of its day: a setting added since reads as its default.
    settings: row.settings ? resolveSettings(row.settings) : null,
    traceUrl: `/messages/${row.message_id}/trace`,
    answerability: row.answerability ?? null,
    reviewed: row.reviewed_at !== null,
    bankItem: row.item_id && row.item_bank_id ? { id: row.item_id, bankId: row.item_bank_id } : null,
  };
}

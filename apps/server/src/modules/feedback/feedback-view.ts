import { FEEDBACK_TOP_PASSAGES, resolveSettings } from '@lumina/shared';
import type { Feedback, FeedbackEntry } from '@lumina/shared';
import type { FeedbackEntryRow, FeedbackRow, PassageRow } from './repositories/feedback.repository';

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

/** The chunk ids an entry shows: the cited passages and the trace's top passages. */
export function entryChunkIds(row: FeedbackEntryRow): string[] {
  return [
    ...row.citations.map((citation) => citation.chunkId),
    ...(row.top_retrieved ?? []).map((passage) => passage.chunkId),
  ];
}

/** A review-queue entry; `passages` holds the stored passages by chunk id. */
export function toEntry(row: FeedbackEntryRow, passages: ReadonlyMap<string, PassageRow>): FeedbackEntry {
  const cited = new Set(row.citations.map((citation) => citation.chunkId));
  const top = (row.top_retrieved ?? []).slice(0, FEEDBACK_TOP_PASSAGES);
  const proposed = new Map<string, string>();
  for (const source of [...row.citations, ...top]) {
    if (proposed.size < FEEDBACK_TOP_PASSAGES && passages.has(source.chunkId)) {
      proposed.set(source.chunkId, source.documentId);
    }
  }
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
      text: passages.get(citation.chunkId)?.text ?? null,
    })),
    topPassages: top.map((passage, index) => {
      const stored = passages.get(passage.chunkId);
      return {
        rank: index + 1,
        chunkId: passage.chunkId,
        documentId: passage.documentId,
        title: stored?.title ?? null,
        headingPath: stored?.heading_path ?? [],
        text: stored?.text ?? null,
        score: passage.score,
        cited: cited.has(passage.chunkId),
      };
    }),
    proposedSources: [...proposed].map(([chunkId, documentId]) => ({ chunkId, documentId })),
    // Stored with the settings of its day: a setting added since reads as its default.
    settings: row.settings ? resolveSettings(row.settings) : null,
    traceUrl: `/messages/${row.message_id}/trace`,
    answerability: row.answerability ?? null,
    reviewed: row.reviewed_at !== null,
    bankItem: row.item_id && row.item_bank_id ? { id: row.item_id, bankId: row.item_bank_id } : null,
  };
}

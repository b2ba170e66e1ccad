import type { Citation, RetrievalTrace } from '@lumina/shared';
import type { AnswerOutcome } from './answer-run';

/** What is stored of an answer: the assistant message's own fields, and its retrieval trace. */
export interface AnswerRecord {
  message: Pick<AnswerOutcome, 'status' | 'source' | 'generator' | 'notFound' | 'droppedMarkers'> &
    Pick<AnswerOutcome, 'uncited' | 'model' | 'usage'> & {
      content: string;
      citations: Citation[];
      /** The failure's sentence and its technical reason, or null. */
      error: string | null;
    };
  trace: Omit<RetrievalTrace, 'id' | 'messageId' | 'createdAt'>;
}

/**
 * The store stage: the outcome as the message and trace the app stores, also for a failed or cancelled
 * answer (its partial text) and for one from general knowledge (no search: no settings, no passages).
 */
export function answerRecord(outcome: AnswerOutcome): AnswerRecord {
  const { search } = outcome;
  return {
    message: {
      content: outcome.text,
      status: outcome.status,
      source: outcome.source,
      generator: outcome.generator,
      notFound: outcome.notFound,
      citations: outcome.citations,
      droppedMarkers: outcome.droppedMarkers,
      uncited: outcome.uncited,
      model: outcome.model,
      usage: outcome.usage,
      error: outcome.error ? `${outcome.error.message} (${outcome.error.detail})` : null,
    },
    trace: {
      query: outcome.query,
      standaloneQuery: outcome.standaloneQuery,
      rewrite: outcome.rewrite,
      rewriteReason: outcome.rewriteReason,
      settings: search?.settings ?? null,
      collectionIds: search?.collectionIds ?? [],
      expansions: search?.expansions ?? null,
      hyde: search?.hyde ?? null,
      adaptive: search?.adaptive ?? null,
      belowThreshold: search?.belowThreshold ?? false,
      answerability: search?.answerability ?? null,
      retrieved: outcome.passages.map((p) => ({
        marker: p.marker,
        chunkId: p.chunkId,
        documentId: p.documentId,
        score: p.score,
        similarity: p.similarity,
        provenance: p.provenance,
        ...(p.rerank ? { rerank: p.rerank } : {}),
      })),
      promptVersion: outcome.promptVersion,
      model: outcome.model,
      generator: outcome.generator,
      source: outcome.source,
      usage: outcome.usage,
      timings: outcome.timings,
      notFound: outcome.notFound,
      uncited: outcome.uncited,
      droppedMarkers: outcome.droppedMarkers,
      warnings: outcome.warnings,
    },
  };
}

import type { TextFormat } from '@lumina/rag';
import type { BeirDataset } from '../datasets/load-beir-dataset';
import { selectQueriesWithQrels } from '../datasets/select-queries-with-qrels';
import { leaveGoldOut } from './leave-gold-out';

export interface AnswerabilityQuestion {
  id: string;
  text: string;
  inScope: boolean;
  /** External ids of the documents that answer it (empty out of scope). */
  gold: string[];
  /** A verbatim quote of the answer, when the set has one. */
  quote: string | null;
}

/** A corpus to index and the questions asked of it. */
export interface AnswerabilitySource {
  name: string;
  corpus: Map<string, { id: string; title: string; text: string }>;
  questions: AnswerabilityQuestion[];
  format: TextFormat;
}

/**
 * A BEIR split as an answerability source by leaving the gold out: a seeded `share` of the judged
 * questions lose every judged document from the corpus, so the index truly cannot answer them.
 */
export function beirLeaveGoldOut(
  dataset: BeirDataset,
  name: string,
  share: number,
  seed: number,
  limit?: number,
): AnswerabilitySource {
  const queries = selectQueriesWithQrels(dataset).slice(0, limit);
  const split = leaveGoldOut(queries, dataset.qrels, share, seed);
  const corpus = new Map([...dataset.corpus].filter(([id]) => !split.excludedDocuments.has(id)));
  const gold = (id: string) =>
    [...(dataset.qrels.get(id) ?? new Map<string, number>())].filter(([, g]) => g > 0).map(([doc]) => doc);
  return {
    name: `${name}-${dataset.split}-lgo-${share}-${seed}${limit ? `-${limit}` : ''}`,
    corpus,
    format: 'plain',
    questions: [
      ...split.inScope.map((q) => ({ id: q.id, text: q.text, inScope: true, gold: gold(q.id), quote: null })),
      ...split.outOfScope.map((q) => ({ id: q.id, text: q.text, inScope: false, gold: [], quote: null })),
    ],
  };
}

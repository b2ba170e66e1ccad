import { mulberry32 } from '../stats/mulberry32';

export interface LeaveGoldOutSplit<Q extends { id: string }> {
  /** Questions whose judged documents stay in the index. */
  inScope: Q[];
  /** Questions whose judged documents were all taken out: the index truly cannot answer them. */
  outOfScope: Q[];
  /** The documents to leave out of the index. */
  excludedDocuments: Set<string>;
}

/**
 * Unanswerable questions from any judged retrieval set: a seeded share of the questions becomes
 * out-of-scope by leaving every document judged relevant to them out of the index. An in-scope question
 * that shares a judged document with an out-of-scope one would lose its answer too, so it is dropped.
 */
export function leaveGoldOut<Q extends { id: string }>(
  queries: readonly Q[],
  qrels: ReadonlyMap<string, ReadonlyMap<string, number>>,
  share = 0.5,
  seed = 1,
): LeaveGoldOutSplit<Q> {
  if (!(share > 0 && share < 1)) throw new RangeError(`share must be in (0, 1), got ${share}`);
  const random = mulberry32(seed);
  const shuffled = [...queries]
    .map((q) => ({ q, key: random() }))
    .sort((a, b) => a.key - b.key)
    .map(({ q }) => q);
  const cut = Math.round(shuffled.length * share);
  const outOfScope = shuffled.slice(0, cut);
  const excludedDocuments = new Set<string>();
  for (const q of outOfScope) {
    for (const [doc, grade] of qrels.get(q.id) ?? new Map()) if (grade > 0) excludedDocuments.add(doc);
  }
  const inScope = shuffled
    .slice(cut)
    .filter((q) => [...(qrels.get(q.id) ?? new Map())].every(([doc]) => !excludedDocuments.has(doc)));
  const order = new Map(queries.map((q, i) => [q.id, i]));
  const byOrder = (a: Q, b: Q) => order.get(a.id)! - order.get(b.id)!;
  return { inScope: inScope.sort(byOrder), outOfScope: outOfScope.sort(byOrder), excludedDocuments };
}

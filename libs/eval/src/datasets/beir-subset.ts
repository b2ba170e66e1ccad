import { mulberry32 } from '../stats/mulberry32';
import type { BeirDataset } from './load-beir-dataset';
import { selectQueriesWithQrels } from './select-queries-with-qrels';

export interface BeirSubsetOptions {
  /** The first N queries (in queries.jsonl order) that have relevance judgments. */
  queries: number;
  /** Documents sampled (seeded) from the rest of the corpus, besides every judged document. */
  distractors: number;
  seed: number;
}

/**
 * A fixed, smaller slice of a BEIR dataset: N queries, all their judged documents, and a seeded sample
 * of distractors. Same inputs, same subset — so a regression gate compares like with like.
 */
export function beirSubset(dataset: BeirDataset, options: BeirSubsetOptions): BeirDataset {
  const queries = selectQueriesWithQrels(dataset).slice(0, options.queries);
  const qrels: BeirDataset['qrels'] = new Map();
  const keep = new Set<string>();
  for (const query of queries) {
    const judged = dataset.qrels.get(query.id)!;
    qrels.set(query.id, judged);
    for (const docId of judged.keys()) if (dataset.corpus.has(docId)) keep.add(docId);
  }
  const others = [...dataset.corpus.keys()].filter((id) => !keep.has(id)).sort();
  const random = mulberry32(options.seed);
  // Partial Fisher–Yates: the first `distractors` slots become a uniform sample.
  const take = Math.min(options.distractors, others.length);
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(random() * (others.length - i));
    [others[i], others[j]] = [others[j], others[i]];
  }
  for (const id of others.slice(0, take)) keep.add(id);
  const corpus: BeirDataset['corpus'] = new Map([...dataset.corpus].filter(([id]) => keep.has(id)));
  return {
    ...dataset,
    corpus,
    queries: new Map(queries.map((query) => [query.id, query.text])),
    qrels,
  };
}

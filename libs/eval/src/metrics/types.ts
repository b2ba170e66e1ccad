/** queryId -> docId -> graded relevance (0 = judged not relevant) */
export type Qrels = Map<string, Map<string, number>>;

/** One query's retrieved documents, best first. */
export interface QueryRun {
  queryId: string;
  /** Document ids, best first. */
  ranking: string[];
}

export type MetricName = 'hit' | 'recall' | 'mrr' | 'ndcg';

/** A metric at a rank cutoff, written as a key like `ndcg@10`. */
export interface MetricSpec {
  name: MetricName;
  k: number;
}

import type { BeirDataset } from './load-beir-dataset';

export interface DatasetQuery {
  id: string;
  text: string;
}

/**
 * The queries that have at least one relevant (score > 0) judgment in the split's qrels, in queries.jsonl
 * order. Queries without one cannot be scored and are left out, as BEIR does.
 */
export function selectQueriesWithQrels(dataset: Pick<BeirDataset, 'queries' | 'qrels'>): DatasetQuery[] {
  const selected: DatasetQuery[] = [];
  for (const [id, text] of dataset.queries) {
    const judgments = dataset.qrels.get(id);
    if (judgments && [...judgments.values()].some((grade) => grade > 0)) {
      selected.push({ id, text });
    }
  }
  return selected;
}

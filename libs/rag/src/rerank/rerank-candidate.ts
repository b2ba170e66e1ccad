import type { ChunkRecord } from '../ports/chunk-search.port';
import type { RerankCandidate } from './reranker.port';

/**
 * A stored chunk as a reranker sees it: its passage and document (empty when the record is missing),
 * its rank in the fused list and where each branch ranked it.
 */
export function toRerankCandidate(
  chunkId: string,
  record: ChunkRecord | undefined,
  fusedRank: number,
  branches: RerankCandidate['branches'],
): RerankCandidate {
  return {
    chunkId,
    documentId: record?.documentId ?? '',
    externalId: record?.externalId ?? null,
    title: record?.documentTitle ?? '',
    headingPath: record?.headingPath ?? [],
    text: record?.text ?? '',
    ...(record ? { ordinal: record.ordinal } : {}),
    fusedRank,
    branches,
  };
}

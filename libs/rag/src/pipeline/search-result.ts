/**
 * What a search returns is the wire contract's shape (libs/shared), declared once: the pipeline builds
 * exactly the answer of POST /rag/search.
 */
export type {
  ExpansionTrace,
  GeneratorSource,
  HydeTrace,
  PassageProvenance as BranchProvenance,
  SearchHit,
  SearchResponse as SearchResult,
  SearchTimings,
} from '@lumina/shared';

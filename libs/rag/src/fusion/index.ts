export { RRF_K, reciprocalRankFusion } from './reciprocal-rank-fusion';
export type {
  FusedItem,
  Provenance,
  RankedItem,
  RankedList,
  ReciprocalRankFusionOptions,
} from './reciprocal-rank-fusion';

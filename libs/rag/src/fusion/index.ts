export { RRF_K, convexScoreFusion, reciprocalRankFusion } from './reciprocal-rank-fusion';
export type {
  FusedItem,
  Provenance,
  RankedItem,
  RankedList,
  ReciprocalRankFusionOptions,
} from './reciprocal-rank-fusion';

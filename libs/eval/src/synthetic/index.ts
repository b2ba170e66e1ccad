export {
  chunkIndexOf,
  chunkUuid,
  DEFAULT_SEED,
  documentUuid,
  generateSyntheticCorpus,
  indexTextOf,
  vectorOf,
} from './synthetic-corpus';
export type {
  SyntheticCorpus,
  SyntheticCorpusOptions,
  SyntheticDocument,
  SyntheticQuery,
} from './synthetic-corpus';
export { exactTopK, recallAt } from './exact-search';
export { normalizeInPlace, SeededRandom } from './seeded-random';
export { ZipfSampler } from './zipf-sampler';

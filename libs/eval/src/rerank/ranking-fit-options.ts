import { DEFAULT_LAMBDAMART_FIT, DEFAULT_LTR_FIT, LTR_FEATURES } from '@lumina/rag';
import type { LtrFeature } from '@lumina/rag';
import type { RankingFitSource, RankingFitSpec } from './fit-ranking-model';

/**
 * The options a fit is asked for, already parsed: the features, and the chosen learner's own options
 * (the other learner's are never read).
 */
export type RankingFitOptions = { features: readonly LtrFeature[] } & (
  | {
      learner: 'linear';
      objective: 'ranknet' | 'ndcg';
      l2: number;
      seed: number;
      maxPairsPerQuery: number;
    }
  | { learner: 'lambdamart'; trees: number; learningRate: number; maxDepth: number; minLeafRows: number }
);

/**
 * The fit spec of these options: the linear learner with the asked L2, seed and pairs per query (and
 * DEFAULT_LTR_FIT's iterations), or LambdaMART with the asked trees over DEFAULT_LAMBDAMART_FIT.
 */
export function rankingFitSpec(options: RankingFitOptions, source: RankingFitSource): RankingFitSpec {
  const features = [...options.features];
  if (options.learner === 'linear')
    return {
      learner: 'linear',
      objective: options.objective,
      options: {
        ...source,
        features,
        l2: options.l2,
        seed: options.seed,
        maxPairsPerQuery: options.maxPairsPerQuery,
        maxIterations: DEFAULT_LTR_FIT.maxIterations,
      },
    };
  return {
    learner: 'lambdamart',
    options: {
      ...DEFAULT_LAMBDAMART_FIT,
      ...source,
      features,
      trees: options.trees,
      learningRate: options.learningRate,
      maxDepth: options.maxDepth,
      minLeafRows: options.minLeafRows,
    },
  };
}

/** What recorded samples say about where they came from (see the server's feature reader). */
export interface RecordedSamplesSource {
  source: string;
  candidateK: number;
  queriesAsked: number;
  search: Record<string, unknown>;
}

/** The provenance a model fitted on recorded samples keeps; 'cross-validation' when it is not named. */
export function recordedFitSource(read: RecordedSamplesSource, version?: string): RankingFitSource {
  return {
    version: version ?? 'cross-validation',
    source: read.source,
    candidateDepth: read.candidateK,
    notes: { search: read.search, queriesAsked: read.queriesAsked },
  };
}

/**
 * The features a comma-separated list names (every feature when there is no list), and the names that
 * are no feature.
 */
export function selectLtrFeatures(list?: string): { features: LtrFeature[]; unknown: string[] } {
  const names = list ? list.split(',') : [...LTR_FEATURES];
  const unknown = names.filter((name) => !(LTR_FEATURES as readonly string[]).includes(name));
  return { features: names as LtrFeature[], unknown };
}

/** True when recorded samples hold exactly the features this version reads, in its column order. */
export function readsCurrentFeatures(features: readonly string[]): boolean {
  return JSON.stringify(features) === JSON.stringify(LTR_FEATURES);
}

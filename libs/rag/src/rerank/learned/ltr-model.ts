import { LTR_FEATURES } from './ltr-features';
import type { LtrFeature } from './ltr-features';
import { LTR_TREES_FORMAT, checkTrees, scoreTrees } from './ltr-trees';
import type { LtrTreesModel } from './ltr-trees';

/** The JSON format of a fitted learned-reranker model (bumped when its meaning changes). */
export const LTR_MODEL_FORMAT = 'lumina-ltr-v1';

/**
 * A fitted learned reranker: a linear model over standardised features, fitted pairwise. Stored as
 * JSON, versioned; every reranked passage's trace names the version and each feature's contribution.
 */
export interface LtrModel {
  format: typeof LTR_MODEL_FORMAT;
  version: string;
  features: LtrFeature[];
  /** Standardisation: (x − mean) / scale, per feature (scale 1 for a feature constant in training). */
  mean: number[];
  scale: number[];
  weights: number[];
  /** Where and how it was fitted. */
  training: LtrTraining;
}

export interface LtrTraining {
  /** e.g. 'scifact:train' or a question bank's name. */
  source: string;
  queries: number;
  candidates: number;
  pairs: number;
  /** Candidates per query the features were read over (the search's candidateK when fitting). */
  candidateDepth: number;
  seed: number;
  l2: number;
  maxPairsPerQuery: number;
  iterations: number;
  converged: boolean;
  /** Mean pairwise logistic loss on the fitting pairs, before (all weights 0) and after. */
  loss: { initial: number; final: number };
  /** 'ranknet' (the pairwise fit alone) or 'ranknet+ndcg@10' (then coordinate ascent on nDCG@10). */
  objective?: string;
  coordinateAscent?: { rounds: number; ndcgBefore: number; ndcgAfter: number };
  /** Anything else the fitting command wants to keep (the search settings, the date, a metric). */
  notes?: Record<string, unknown>;
}

/** A fitted learned reranker of either kind: linear (pairwise) or gradient-boosted trees (LambdaMART). */
export type LearnedRankingModel = LtrModel | LtrTreesModel;

export function isTreesModel(model: LearnedRankingModel): model is LtrTreesModel {
  return model.format === LTR_TREES_FORMAT;
}

/** Either model's score of one row (in the model's `features` order), and each feature's share of it. */
export function scoreModel(
  model: LearnedRankingModel,
  row: readonly number[],
): { score: number; contributions: number[] } {
  return isTreesModel(model) ? scoreTrees(model, row) : scoreLtr(model, row);
}

/** The features a model actually reads (a weight that is not 0, or a split of some tree). */
export function featuresInUse(model: LearnedRankingModel): LtrFeature[] {
  if (isTreesModel(model)) {
    const used = new Set(model.trees.flatMap((tree) => tree.feature.filter((f) => f >= 0)));
    return model.features.filter((_, i) => used.has(i));
  }
  return model.features.filter((_, i) => model.weights[i] !== 0);
}

/** The model's score of one feature row, and each feature's share of it. */
export function scoreLtr(
  model: LtrModel,
  row: readonly number[],
): { score: number; contributions: number[] } {
  const contributions = model.weights.map((w, i) => w * ((row[i] - model.mean[i]) / model.scale[i]));
  return { score: contributions.reduce((sum, c) => sum + c, 0), contributions };
}

/** Column indexes of the model's features in an LTR_FEATURES row. */
export function featureColumns(model: Pick<LtrModel, 'features'>): number[] {
  return model.features.map((name) => LTR_FEATURES.indexOf(name));
}

/** Check a model read from JSON (either kind); throws with the reason when it is not one. */
export function parseLtrModel(value: unknown): LearnedRankingModel {
  if (typeof value !== 'object' || value === null)
    throw new Error('a learned-reranker model is a JSON object');
  const model = value as Partial<LtrModel> & Partial<Omit<LtrTreesModel, 'format'>>;
  const format = model.format as string | undefined;
  if (format !== LTR_MODEL_FORMAT && format !== LTR_TREES_FORMAT)
    throw new Error(
      `format must be "${LTR_MODEL_FORMAT}" or "${LTR_TREES_FORMAT}", got ${JSON.stringify(model.format)}`,
    );
  if (typeof model.version !== 'string' || !model.version.trim()) throw new Error('version must be a name');
  if (!Array.isArray(model.features) || model.features.length === 0)
    throw new Error('features must be a list of feature names');
  const unknown = model.features.filter((f) => !(LTR_FEATURES as readonly string[]).includes(f));
  if (unknown.length) throw new Error(`unknown features: ${unknown.join(', ')}`);
  if (new Set(model.features).size !== model.features.length) throw new Error('features repeat a name');
  if (format === LTR_TREES_FORMAT) checkTrees(model as Partial<LtrTreesModel>);
  else {
    for (const key of ['mean', 'scale', 'weights'] as const) {
      const list = model[key];
      if (
        !Array.isArray(list) ||
        list.length !== model.features.length ||
        list.some((v) => !Number.isFinite(v))
      )
        throw new Error(`${key} must hold ${model.features.length} finite numbers`);
    }
    if (model.scale!.some((v) => v <= 0)) throw new Error('scale must be positive');
  }
  if (typeof model.training !== 'object' || model.training === null)
    throw new Error('training must describe where the model was fitted');
  return model as LearnedRankingModel;
}

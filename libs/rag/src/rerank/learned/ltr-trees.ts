import type { LtrFeature } from './ltr-features';
import type { LtrTraining } from './ltr-model';

/** The JSON format of a fitted gradient-boosted-trees reranker (bumped when its meaning changes). */
export const LTR_TREES_FORMAT = 'lumina-ltr-trees-v1';

/**
 * One regression tree, as parallel arrays over its nodes (node 0 is the root). An inner node sends a
 * row left when `row[feature] <= threshold`; a leaf has feature −1. Every node keeps its value (the
 * Newton step of the rows that reached it), so each split's share of a score can be told apart.
 */
export interface RegressionTree {
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  value: number[];
}

/**
 * A fitted learned reranker made of gradient-boosted regression trees (LambdaMART): the score of a
 * candidate is the sum of the leaf each tree sends it to, times the learning rate. Features are read
 * raw (trees need no standardisation); `features[i]` is the feature a tree's `feature: i` names.
 */
export interface LtrTreesModel {
  format: typeof LTR_TREES_FORMAT;
  version: string;
  features: LtrFeature[];
  learningRate: number;
  trees: RegressionTree[];
  training: LtrTraining & {
    trees: { count: number; maxDepth: number; minLeafRows: number; leafL2: number; bins: number };
  };
}

/**
 * The trees' score of one row (in `features` order) and each feature's share of it: along a row's
 * path, each split adds the change in node value it caused to its feature (Saabas's attribution), so
 * the shares plus the roots' values (`base`, the same for every row) sum to the score exactly.
 */
export function scoreTrees(
  model: LtrTreesModel,
  row: readonly number[],
): { score: number; base: number; contributions: number[] } {
  const contributions = new Array<number>(model.features.length).fill(0);
  let base = 0;
  let score = 0;
  for (const tree of model.trees) {
    let node = 0;
    base += model.learningRate * tree.value[0];
    while (tree.feature[node] >= 0) {
      const feature = tree.feature[node];
      const next = row[feature] <= tree.threshold[node] ? tree.left[node] : tree.right[node];
      contributions[feature] += model.learningRate * (tree.value[next] - tree.value[node]);
      node = next;
    }
    score += model.learningRate * tree.value[node];
  }
  return { score, base, contributions };
}

/** Check the trees part of a model read from JSON; throws with the reason when it is not one. */
export function checkTrees(model: Partial<LtrTreesModel>): void {
  const features = model.features?.length ?? 0;
  if (typeof model.learningRate !== 'number' || !(model.learningRate > 0))
    throw new Error('learningRate must be a positive number');
  if (!Array.isArray(model.trees)) throw new Error('trees must be a list of regression trees');
  model.trees.forEach((tree, t) => {
    const keys = ['feature', 'threshold', 'left', 'right', 'value'] as const;
    const nodes = Array.isArray(tree?.feature) ? tree.feature.length : 0;
    if (nodes === 0) throw new Error(`tree ${t} has no nodes`);
    for (const key of keys) {
      const list = tree[key];
      if (!Array.isArray(list) || list.length !== nodes || list.some((v) => !Number.isFinite(v)))
        throw new Error(`tree ${t}: ${key} must hold ${nodes} finite numbers`);
    }
    for (let node = 0; node < nodes; node++) {
      const feature = tree.feature[node];
      if (feature === -1) continue;
      if (!Number.isInteger(feature) || feature < 0 || feature >= features)
        throw new Error(`tree ${t}, node ${node}: feature must index the model's features`);
      // Children come after their parent, so a walk always ends.
      for (const child of [tree.left[node], tree.right[node]])
        if (!Number.isInteger(child) || child <= node || child >= nodes)
          throw new Error(`tree ${t}, node ${node}: children must be later nodes of the tree`);
    }
  });
}

import { LearnedReranker, parseLtrModel } from '@lumina/rag';
import type { Env } from '../config/env.schema';
import { loadModelFile } from '../config/model-file';

/**
 * The learned reranker of RERANK_MODEL_FILE (read and checked once; a bad file stops the boot with its
 * reason), or null when the variable is unset.
 */
export function learnedRerankerFor(env: Pick<Env, 'RERANK_MODEL_FILE'>): LearnedReranker | null {
  const file = env.RERANK_MODEL_FILE;
  if (!file) return null;
  return loadModelFile('RERANK_MODEL_FILE', file, (json) => new LearnedReranker(parseLtrModel(json)));
}

import { readFileSync } from 'node:fs';
import { LearnedReranker, parseLtrModel } from '@lumina/rag';
import type { Env } from '../config/env.schema';

const loaded = new Map<string, LearnedReranker>();

/**
 * The learned reranker of RERANK_MODEL_FILE (read and checked once; a bad file stops the boot with its
 * reason), or null when the variable is unset.
 */
export function learnedRerankerFor(env: Pick<Env, 'RERANK_MODEL_FILE'>): LearnedReranker | null {
  const file = env.RERANK_MODEL_FILE;
  if (!file) return null;
  let reranker = loaded.get(file);
  if (!reranker) {
    try {
      reranker = new LearnedReranker(parseLtrModel(JSON.parse(readFileSync(file, 'utf8'))));
    } catch (error) {
      throw new Error(`RERANK_MODEL_FILE ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    loaded.set(file, reranker);
  }
  return reranker;
}

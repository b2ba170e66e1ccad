import type { Env } from '../config/env.schema';
import { RerankFeatureReader } from '../modules/evaluation/suites/rerank-features.service';
import type {
  RecordedSamples,
  RerankFeaturesInput,
} from '../modules/evaluation/suites/rerank-features.service';
import { withEvalDatabase } from './command-context';
import { STDERR_PROGRESS } from './progress';

export interface ReadRerankFeaturesInput extends RerankFeaturesInput {
  env: Env;
  /** Embedded database folder (ignored when DATABASE_URL is set); 'memory://' for a throwaway one. */
  dbDir: string;
}

/**
 * Index a BEIR corpus with the app's code (reusing what the database already holds), search every judged
 * query the way the app does and read its candidates' features: what the learned reranker is fitted on.
 */
export function readRerankFeatures({
  env,
  dbDir,
  ...input
}: ReadRerankFeaturesInput): Promise<RecordedSamples> {
  return withEvalDatabase(env, dbDir, (app) => app.get(RerankFeatureReader).read(input, STDERR_PROGRESS));
}

import type { RetrievalReport } from '@lumina/eval';
import type { Env } from '../config/env.schema';
import { RetrievalSuite } from '../modules/evaluation/suites/retrieval-suite.service';
import type { RetrievalSuiteInput } from '../modules/evaluation/suites/retrieval-suite.service';
import { withEvalDatabase } from './command-context';
import { STDERR_PROGRESS } from './progress';

export type { RankerRun } from '../modules/evaluation/suites/retrieval-suite.service';

export interface EvaluateBeirInput extends RetrievalSuiteInput {
  env: Env;
  /** Embedded database folder (ignored when DATABASE_URL is set); 'memory://' for a throwaway one. */
  dbDir: string;
}

/**
 * Index a BEIR corpus with the app's code (reusing what the database already holds), then evaluate each
 * requested ranker configuration with the app's searchKnowledge. Returns one report per run.
 */
export function evaluateBeir({ env, dbDir, ...input }: EvaluateBeirInput): Promise<RetrievalReport[]> {
  return withEvalDatabase(env, dbDir, (app) => app.get(RetrievalSuite).evaluate(input, STDERR_PROGRESS));
}

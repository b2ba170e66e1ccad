import { readFileSync } from 'node:fs';
import { readsCurrentFeatures } from '@lumina/eval';
import type { Env } from '../config/env.schema';
import { RerankFeatureReader } from '../modules/evaluation/suites/rerank-features.service';
import type {
  RecordedSamples,
  RerankFeaturesInput,
} from '../modules/evaluation/suites/rerank-features.service';
import { UsageError } from './cli-args';
import { envChunking } from '../config/env-chunking';
import { evalDbDir, loadEvalDataset, withEvalDatabase } from './command-context';
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

/** Recorded samples from a file (--samples wrote it); a UsageError when they hold other features. */
export function loadSamples(file: string): RecordedSamples {
  const read = JSON.parse(readFileSync(file, 'utf8')) as RecordedSamples;
  if (!readsCurrentFeatures(read.features))
    throw new UsageError(`${file} holds other features than this version reads; read them again`);
  return read;
}

/** Search every judged query of the split and read its candidates' features, in the eval command's index. */
export async function readSamples(
  datasetDir: string,
  split: string,
  limit: number | undefined,
  dbDir: string | undefined,
  options: { candidateK: number; concurrency: number; dense: boolean; env: Env },
): Promise<RecordedSamples> {
  const { name, dataset, queries } = await loadEvalDataset(datasetDir, split, limit);
  const chunking = envChunking(options.env);
  // The retrieval eval's database for the same chunking, so the index is shared with it.
  return readRerankFeatures({
    ...options,
    dbDir: dbDir ?? evalDbDir(name, chunking),
    dataset,
    datasetName: name,
    split,
    queries,
    chunking,
  });
}

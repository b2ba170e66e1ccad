import { writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { loadBeirDataset, selectQueriesWithQrels } from '@lumina/eval';
import type { BeirDataset, EvalQuery } from '@lumina/eval';
import type { Env } from '../config/env.schema';
import { withCoreContext } from '../core/core-context';
import { nodeDatasetFiles } from '../files/node-dataset-files';
import { positiveInt, UsageError } from './cli-args';

/** The BEIR folder a command reads: --dataset, else EVAL_DATASET_DIR. */
export function datasetDirOf(flag: string | undefined, env: Env): string {
  const dir = flag ?? env.EVAL_DATASET_DIR;
  if (!dir) throw new UsageError('--dataset (or EVAL_DATASET_DIR) is required');
  return dir;
}

/** --limit-queries, when given. */
export function queryLimitOf(flag: string | undefined): number | undefined {
  return flag ? positiveInt(flag, '--limit-queries') : undefined;
}

export interface EvalDataset {
  /** The folder's name: documents are tagged with it. */
  name: string;
  dataset: BeirDataset;
  /** The split's queries with judgments, the first `limit` of them. */
  queries: EvalQuery[];
}

export async function loadEvalDataset(dir: string, split: string, limit?: number): Promise<EvalDataset> {
  const dataset = await loadBeirDataset(nodeDatasetFiles, dir, split);
  return { name: basename(resolve(dir)), dataset, queries: selectQueriesWithQrels(dataset).slice(0, limit) };
}

/** The embedded database the eval commands share for a dataset chunked this way, reused by later runs. */
export function evalDbDir(datasetName: string, chunking: { maxChars: number; overlapChars: number }): string {
  return `.data/eval/${datasetName}-chunk-${chunking.maxChars}-${chunking.overlapChars}`;
}

/**
 * Runs `work` on the server's core (a Nest application context, no HTTP) over the command's database:
 * DATABASE_URL, else the embedded one in `dbDir` ('memory://' for a throwaway one).
 */
export function withEvalDatabase<T>(
  env: Env,
  dbDir: string,
  work: (app: INestApplicationContext) => Promise<T>,
): Promise<T> {
  return withCoreContext({ ...env, PGLITE_DATA_DIR: dbDir }, work);
}

/** A report as indented JSON, said on stderr unless quiet. */
export function writeReport(file: string, report: unknown, quiet = false): void {
  writeFileSync(file, JSON.stringify(report, null, 2));
  if (!quiet) console.error(`report written to ${file}`);
}

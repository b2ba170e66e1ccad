import 'reflect-metadata';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadBeirDataset } from '@lumina/eval';
import { loadEnv } from '../config/load-env';
import { openDataSource } from '../app-data-source';
import { CachedEmbedder } from '../providers/cached-embedder';
import { createEmbedder } from '../providers/create-embedder';
import { importBeirAsBank } from './beir-bank-import';
import { progressReporter } from './progress';
import { nodeDatasetFiles } from '../files/node-dataset-files';

const USAGE = `usage:
  npm run eval:import-bank -- --dataset <beir-dir> [--split test] [--name <bank name>] [--no-vectors]

Loads a BEIR corpus into the app's database (DATABASE_URL, or the embedded one under PGLITE_DATA_DIR —
stop the server first: the embedded database has one owner) as documents, chunked with CHUNK_MAX_CHARS /
CHUNK_OVERLAP_CHARS, and the split's judged queries as a question bank citing them. Documents already
imported are kept. --no-vectors skips embeddings (BM25 only; the dense and hybrid rankers need them).
Then: POST /question-banks/<id>/evaluate, or explore the bank and its documents in the app.`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      split: { type: 'string', default: 'test' },
      name: { type: 'string' },
      'no-vectors': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const env = loadEnv();
  const datasetDir = values.dataset ?? env.EVAL_DATASET_DIR;
  if (!datasetDir) throw new UsageError('--dataset (or EVAL_DATASET_DIR) is required');
  const datasetName = basename(resolve(datasetDir));
  const dataset = await loadBeirDataset(nodeDatasetFiles, datasetDir, values.split);

  const database = await openDataSource(env);
  const { dataSource } = database;
  try {
    const outcome = await importBeirAsBank(dataSource, {
      dataset,
      datasetName,
      bankName: values.name ?? `${datasetName} ${values.split}`,
      chunking: { unit: 'chunk', maxChars: env.CHUNK_MAX_CHARS, overlapChars: env.CHUNK_OVERLAP_CHARS },
      embedder: values['no-vectors']
        ? null
        : new CachedEmbedder(createEmbedder(env), dataSource, env.EMBEDDINGS_BATCH_SIZE),
      onProgress: progressReporter,
    });
    const { index, report } = outcome;
    console.log(
      `documents: ${index.documentsAdded} added, ${index.chunksWritten} chunks, ${index.vectorsBackfilled} vectors ` +
        `(${index.seconds}s)\nbank ${outcome.bankId}: ${report.accepted} items accepted, ` +
        `${report.rejected.length} rejected` +
        (report.skipped ? `, ${report.skipped.count} skipped (${report.skipped.reason})` : ''),
    );
    for (const rejection of report.rejected.slice(0, 20)) {
      console.log(`  rejected ${rejection.id ?? `row ${rejection.row}`}: ${rejection.reasons.join('; ')}`);
    }
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

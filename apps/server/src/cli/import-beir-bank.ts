import 'reflect-metadata';
import type { EmbeddingProvider } from '@lumina/rag';
import { loadEnv } from '../config/load-env';
import { withCoreContext } from '../core/core-context';
import { BeirBankImport } from '../modules/evaluation/suites/beir-bank-import.service';
import { EMBEDDER } from '../providers/providers.module';
import { flags, parseFlags, runCommand } from './cli-args';
import { envChunking } from '../config/env-chunking';
import { datasetDirOf, loadEvalDataset } from './command-context';
import { progressReporter } from './progress';

const USAGE = `usage:
  npm run eval:import-bank -- --dataset <beir-dir> [--split test] [--name <bank name>] [--no-vectors]

Loads a BEIR corpus into the app's database (DATABASE_URL, or the embedded one under PGLITE_DATA_DIR —
stop the server first: the embedded database has one owner) as documents, chunked with CHUNK_MAX_CHARS /
CHUNK_OVERLAP_CHARS, and the split's judged queries as a question bank citing them. Documents already
imported are kept. --no-vectors skips embeddings (BM25 only; the dense and hybrid rankers need them).
Then: POST /question-banks/<id>/evaluate, or explore the bank and its documents in the app.`;

const FLAGS = flags({ string: 'dataset name', boolean: 'no-vectors help', defaults: { split: 'test' } });

async function main(argv: string[]): Promise<void> {
  const { values } = parseFlags(argv, FLAGS);
  if (values.help) return console.log(USAGE);
  const env = loadEnv();
  const { name, dataset } = await loadEvalDataset(datasetDirOf(values.dataset, env), values.split);
  const outcome = await withCoreContext(env, (app) =>
    app.get(BeirBankImport).importAsBank({
      dataset,
      datasetName: name,
      bankName: values.name ?? `${name} ${values.split}`,
      chunking: envChunking(env),
      embedder: values['no-vectors'] ? null : app.get<EmbeddingProvider>(EMBEDDER),
      onProgress: progressReporter,
    }),
  );
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
}

runCommand(main, USAGE);

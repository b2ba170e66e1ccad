import { join } from 'node:path';
import type { Qrels } from '../metrics/types';
import { BeirFormatError } from './beir-format-error';
import { readBeirCorpus, readBeirQueries } from './beir-jsonl';
import type { BeirDocument } from './beir-jsonl';
import { readBeirQrels } from './beir-qrels';
import type { DatasetFiles } from './dataset-files';

export interface BeirDataset {
  dir: string;
  split: string;
  /** Document id -> document, in corpus.jsonl order. */
  corpus: Map<string, BeirDocument>;
  /** Query id -> query text, in queries.jsonl order. */
  queries: Map<string, string>;
  /** Judgments of the split. */
  qrels: Qrels;
}

export interface LoadBeirOptions {
  /**
   * Keep qrels lines that name a query or document missing from queries.jsonl / corpus.jsonl instead of
   * failing. They stay in `qrels` (as in BEIR's own evaluation), so unknown relevant documents still count
   * in recall denominators.
   */
  allowUnknownQrels?: boolean;
}

/**
 * Loads a dataset in BEIR layout: `corpus.jsonl`, `queries.jsonl` and `qrels/<split>.tsv`, streaming each
 * file line by line. Malformed content raises a BeirFormatError naming the file and line.
 */
export async function loadBeirDataset(
  reader: DatasetFiles,
  dir: string,
  split = 'test',
  options: LoadBeirOptions = {},
): Promise<BeirDataset> {
  if (split === '' || /[\\/]/.test(split) || split === '.' || split === '..') {
    throw new Error(
      `Invalid split name ${JSON.stringify(split)}: expected a name like "test", "dev" or "train"`,
    );
  }
  const files = {
    corpus: join(dir, 'corpus.jsonl'),
    queries: join(dir, 'queries.jsonl'),
    qrels: join(dir, 'qrels', `${split}.tsv`),
  };
  await assertLayout(reader, dir, split, files);

  const corpus = await readBeirCorpus(files.corpus, reader);
  const queries = await readBeirQueries(files.queries, reader);
  const qrels = await readBeirQrels(
    files.qrels,
    {
      queryIds: queries,
      documentIds: corpus,
      allowUnknown: options.allowUnknownQrels ?? false,
    },
    reader,
  );
  return { dir, split, corpus, queries, qrels };
}

async function assertLayout(
  reader: DatasetFiles,
  dir: string,
  split: string,
  files: { corpus: string; queries: string; qrels: string },
): Promise<void> {
  const layout = `a BEIR dataset folder must contain corpus.jsonl, queries.jsonl and qrels/${split}.tsv`;
  const dirKind = await reader.kind(dir);
  if (dirKind !== 'directory') {
    const problem =
      dirKind === 'missing' ? 'dataset folder not found' : `expected a folder, found a ${dirKind}`;
    throw new BeirFormatError(`${problem}; ${layout}`, dir);
  }
  for (const file of [files.corpus, files.queries, files.qrels]) {
    const kind = await reader.kind(file);
    if (kind === 'file') continue;
    let detail =
      kind === 'missing' ? `file is missing; ${layout}` : `expected a file, found a ${kind}; ${layout}`;
    if (file === files.qrels) {
      const splits = await availableSplits(reader, join(dir, 'qrels'));
      if (splits.length > 0) detail += ` (splits present: ${splits.join(', ')})`;
    }
    throw new BeirFormatError(detail, file);
  }
}

async function availableSplits(reader: DatasetFiles, qrelsDir: string): Promise<string[]> {
  try {
    const names = await reader.list(qrelsDir);
    return names
      .filter((name) => name.endsWith('.tsv'))
      .map((name) => name.slice(0, -'.tsv'.length))
      .sort();
  } catch {
    return [];
  }
}

import type { Qrels } from '../metrics/types';
import { BeirFormatError } from './beir-format-error';
import type { DatasetFiles } from './dataset-files';

export interface ReadQrelsOptions {
  /** Known query ids; judgments naming others are rejected unless `allowUnknown`. */
  queryIds: ReadonlySet<string> | ReadonlyMap<string, unknown>;
  /** Known document ids; judgments naming others are rejected unless `allowUnknown`. */
  documentIds: ReadonlySet<string> | ReadonlyMap<string, unknown>;
  /** Keep judgments for unknown queries or documents instead of failing. */
  allowUnknown?: boolean;
}

const HEADER = ['query-id', 'corpus-id', 'score'];
const INTEGER = /^[+-]?\d+$/;

/**
 * Reads a BEIR `qrels/<split>.tsv`: an optional `query-id<TAB>corpus-id<TAB>score` header, then one
 * tab-separated judgment per line with an integer score. A judgment repeated with the same score is
 * accepted once; a repeat with a different score is an error.
 */
export async function readBeirQrels(
  file: string,
  options: ReadQrelsOptions,
  files: DatasetFiles,
): Promise<Qrels> {
  const qrels: Qrels = new Map();
  let seenContent = false;
  for await (const { text, lineNumber } of files.lines(file)) {
    if (text.trim() === '') continue;
    const columns = text.split('\t').map((column) => column.trim());
    const isFirst = !seenContent;
    seenContent = true;
    if (isFirst && columns.length === 3 && columns.every((column, i) => column.toLowerCase() === HEADER[i])) {
      continue;
    }
    if (columns.length !== 3) {
      const hint =
        columns.length === 1 && /\s/.test(text.trim()) ? ' (columns must be separated by tabs)' : '';
      throw new BeirFormatError(
        `expected 3 tab-separated columns (query-id, corpus-id, score), found ${columns.length}${hint}`,
        file,
        lineNumber,
      );
    }
    const [queryId, documentId, rawScore] = columns;
    if (queryId === '' || documentId === '') {
      throw new BeirFormatError('query-id and corpus-id must not be empty', file, lineNumber);
    }
    const score = Number(rawScore);
    if (!INTEGER.test(rawScore) || !Number.isSafeInteger(score)) {
      throw new BeirFormatError(
        `score must be an integer, found ${JSON.stringify(rawScore)}`,
        file,
        lineNumber,
      );
    }
    if (!options.allowUnknown) {
      const hint = ' (use allowUnknownQrels to keep such judgments)';
      if (!options.queryIds.has(queryId)) {
        throw new BeirFormatError(`query "${queryId}" is not in queries.jsonl${hint}`, file, lineNumber);
      }
      if (!options.documentIds.has(documentId)) {
        throw new BeirFormatError(`document "${documentId}" is not in corpus.jsonl${hint}`, file, lineNumber);
      }
    }
    let judgments = qrels.get(queryId);
    if (!judgments) {
      judgments = new Map();
      qrels.set(queryId, judgments);
    }
    const previous = judgments.get(documentId);
    if (previous !== undefined && previous !== score) {
      throw new BeirFormatError(
        `conflicting judgments for query "${queryId}" and document "${documentId}": ${score} here, ${previous} earlier`,
        file,
        lineNumber,
      );
    }
    judgments.set(documentId, score);
  }
  return qrels;
}

/** A query line of a BEIR queries.jsonl. */
export interface BeirQueryLine {
  line: number;
  id: string;
  text: string;
}

export interface ParsedBeirQueries {
  queries: BeirQueryLine[];
  /** Lines that are not a `{"_id", "text"}` object, or repeat an id. */
  problems: { line: number; id?: string; reason: string }[];
}

/** Parses queries.jsonl text: one `{"_id": ..., "text": ...}` per line, blank lines ignored. */
export function parseBeirQueries(text: string): ParsedBeirQueries {
  const queries: BeirQueryLine[] = [];
  const problems: ParsedBeirQueries['problems'] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      problems.push({ line, reason: `malformed JSON (${(error as Error).message})` });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push({ line, reason: 'expected a JSON object with "_id" and "text"' });
      return;
    }
    const record = value as Record<string, unknown>;
    const id = typeof record._id === 'number' ? String(record._id) : record._id;
    if (typeof id !== 'string' || id === '') {
      problems.push({ line, reason: '"_id" must be a non-empty string or a number' });
      return;
    }
    if (typeof record.text !== 'string' || record.text.trim() === '') {
      problems.push({ line, id, reason: '"text" must be a non-empty string' });
      return;
    }
    if (seen.has(id)) {
      problems.push({ line, id, reason: `duplicate _id "${id}"` });
      return;
    }
    seen.add(id);
    queries.push({ line, id, text: record.text });
  });
  return { queries, problems };
}

export interface ParsedQrels {
  /** query id -> corpus id -> grade, in file order. */
  judgments: Map<string, Map<string, number>>;
  /** query id -> first qrels line naming it. */
  firstLine: Map<string, number>;
  problems: { line: number; reason: string }[];
}

/** Parses a BEIR qrels TSV: optional `query-id corpus-id score` header, then tab-separated integer judgments. */
export function parseBeirQrels(text: string): ParsedQrels {
  const judgments = new Map<string, Map<string, number>>();
  const firstLine = new Map<string, number>();
  const problems: ParsedQrels['problems'] = [];
  let seenContent = false;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    const columns = raw.split('\t').map((column) => column.trim());
    const first = !seenContent;
    seenContent = true;
    if (first && columns.length === 3 && columns[0].toLowerCase() === 'query-id') return;
    if (columns.length !== 3) {
      problems.push({
        line,
        reason: `expected 3 tab-separated columns (query-id, corpus-id, score), found ${columns.length}`,
      });
      return;
    }
    const [queryId, documentId, score] = columns;
    if (!queryId || !documentId) {
      problems.push({ line, reason: 'query-id and corpus-id must not be empty' });
      return;
    }
    if (!/^[+-]?\d+$/.test(score)) {
      problems.push({ line, reason: `score must be an integer, found ${JSON.stringify(score)}` });
      return;
    }
    let forQuery = judgments.get(queryId);
    if (!forQuery) {
      forQuery = new Map();
      judgments.set(queryId, forQuery);
      firstLine.set(queryId, line);
    }
    const previous = forQuery.get(documentId);
    if (previous !== undefined && previous !== Number(score)) {
      problems.push({
        line,
        reason: `conflicting judgments for query "${queryId}" and document "${documentId}"`,
      });
      return;
    }
    forQuery.set(documentId, Number(score));
  });
  return { judgments, firstLine, problems };
}

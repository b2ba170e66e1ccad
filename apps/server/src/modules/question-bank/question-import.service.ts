import { Injectable } from '@nestjs/common';
import {
  CSV_IGNORED_COLUMNS,
  CSV_IMPORT_COLUMNS,
  CsvFormatError,
  IMPORTABLE_FIELDS,
  matchImportRows,
  parseBeirQrels,
  parseBeirQueries,
  parseBooleanCell,
  parseCsv,
  parseGradedRef,
  restoreInertCell,
  splitList,
} from '@lumina/eval';
import type { ImportableField, ImportableFields, IncomingRow } from '@lumina/eval';
import { MAX_IMPORT_ROWS } from '@lumina/shared';
import type { ImportFormat, ImportRejection, ImportReport, ImportRequest } from '@lumina/shared';
import { QuestionBankService } from './question-bank.service';
import { ExpectedSourceResolver } from './expected-source-resolver';
import type { SourceReference } from './expected-source-resolver';
import { QuestionBankItemService } from './question-bank-item.service';
import type { NewQuestionItem } from './repositories/question-bank-item.repository';
import { validateItemRow } from './validate-item-row';
import { InvalidRequestError } from '../../common/errors/domain-errors';

/** A row read from an import, before its sources are checked against the database. */
interface CandidateRow {
  row: number;
  /** The row's own id in its file, for the report (a BEIR query id, an exported item id). */
  id?: string;
  /** The id of the item the row was exported from (JSON `id`, CSV `id` column), to match it again. */
  itemId?: string;
  item?: Omit<NewQuestionItem, 'expectedSources' | 'source'>;
  /** The fields the row states; a matched item keeps the others as they are. */
  given?: ReadonlySet<ImportableField>;
  refs: SourceReference[];
  reasons: string[];
}

const ALL_FIELDS: ReadonlySet<ImportableField> = new Set(IMPORTABLE_FIELDS);

/** The item field each CSV column sets. */
const CSV_FIELD: Record<string, ImportableField> = {
  question: 'question',
  expected_answer: 'expectedAnswer',
  in_scope: 'inScope',
  expected_documents: 'expectedSources',
  expected_chunks: 'expectedSources',
  language: 'language',
  tags: 'tags',
  difficulty: 'difficulty',
};

export type ImportInput = ImportRequest;

/**
 * Imports rows into a bank from BEIR (queries.jsonl + qrels), CSV or JSON. Every row is checked on its
 * own — shape, then each expected source against the documents and chunks — and the report says which
 * rows were accepted and why the others were rejected. Importing is idempotent: a row matching an item
 * of the bank (by the item's id, or by its question, case and whitespace aside) updates that item or
 * leaves it unchanged instead of adding a copy. Accepted rows are written in one transaction.
 */
@Injectable()
export class QuestionImportService {
  constructor(
    private readonly items: QuestionBankItemService,
    private readonly sources: ExpectedSourceResolver,
    private readonly banks: QuestionBankService,
  ) {}

  async import(bankId: string, input: ImportInput | ImportRequest): Promise<ImportReport> {
    const { rows, skipped } = this.read(input, input.language ?? 'en');
    return this.finish(bankId, input.format, rows, skipped, input);
  }

  /**
   * Imports an already loaded BEIR split (the CLI's path): one item per query with a judgment, in
   * queries order, its judged documents named by external id within `dataset`.
   */
  async importBeirDataset(
    bankId: string,
    input: {
      queries: Map<string, string>;
      qrels: Map<string, Map<string, number>>;
      dataset?: string;
      language?: string;
    },
  ): Promise<ImportReport> {
    const queries = [...input.queries].map(([id, text], index) => ({ line: index + 1, id, text }));
    const read = beirRows(queries, input.qrels, input.language ?? 'en', (queryId) => ({
      row: 0,
      reason: `the qrels name query "${queryId}" that is not in queries`,
    }));
    return this.finish(bankId, 'beir', read.rows, read.skipped, { dataset: input.dataset });
  }

  private async finish(
    bankId: string,
    format: ImportFormat,
    rows: CandidateRow[],
    skipped: ImportReport['skipped'],
    options: { dataset?: string; dryRun?: boolean },
  ): Promise<ImportReport> {
    if (rows.length > MAX_IMPORT_ROWS) {
      throw new InvalidRequestError([
        `an import holds at most ${MAX_IMPORT_ROWS} rows, this one has ${rows.length}`,
      ]);
    }
    const resolved = await this.sources.resolve(
      rows.map((row) => (row.reasons.length ? [] : row.refs)),
      { dataset: options.dataset, collectionId: await this.banks.collectionOf(bankId) },
    );
    const incoming: IncomingRow[] = [];
    const rejected: ImportRejection[] = [];
    const taken: { row: CandidateRow; sources: NewQuestionItem['expectedSources'] }[] = [];
    rows.forEach((row, index) => {
      const result = resolved[index];
      const reasons = [...row.reasons, ...(result.ok ? [] : result.reasons)];
      if (reasons.length || !row.item || !result.ok) {
        rejected.push({ row: row.row, ...(row.id !== undefined ? { id: row.id } : {}), reasons });
        return;
      }
      taken.push({ row, sources: result.sources });
      incoming.push({
        row: row.row,
        ...(row.itemId !== undefined ? { itemId: row.itemId } : {}),
        ...(typeof row.item.metadata?.beirQueryId === 'string'
          ? { externalKey: row.item.metadata.beirQueryId }
          : {}),
        given: row.given ?? ALL_FIELDS,
        values: {
          question: row.item.question.trim(),
          expectedAnswer: row.item.expectedAnswer ?? null,
          inScope: row.item.inScope ?? true,
          expectedSources: result.sources,
          language: row.item.language ?? 'en',
          tags: [...new Set(row.item.tags ?? [])],
          difficulty: row.item.difficulty ?? null,
        },
      });
    });
    const existing = incoming.length ? await this.items.importMatchItems(bankId) : [];
    const plans = matchImportRows(existing, incoming);
    const added: NewQuestionItem[] = [];
    const addedAt: number[] = [];
    const updates: { id: string; changes: Partial<ImportableFields> }[] = [];
    const itemIdAt = new Map<number, string>();
    let unchanged = 0;
    plans.forEach((plan, at) => {
      const { row, sources } = taken[at];
      if (plan.kind === 'repeat') {
        rejected.push({
          row: row.row,
          ...(row.id !== undefined ? { id: row.id } : {}),
          reasons: [plan.reason],
        });
      } else if (plan.kind === 'add') {
        added.push({ ...row.item!, expectedSources: sources, source: 'imported' });
        addedAt.push(at);
      } else if (plan.kind === 'update') {
        updates.push({ id: plan.id, changes: plan.changes });
        itemIdAt.set(at, plan.id);
      } else {
        unchanged++;
        itemIdAt.set(at, plan.id);
      }
    });
    const dryRun = options.dryRun ?? false;
    if (!dryRun) {
      const addedIds = await this.items.applyImport(bankId, added, updates);
      addedAt.forEach((at, index) => itemIdAt.set(at, addedIds[index]));
    }
    return {
      format,
      dryRun,
      rows: rows.length,
      accepted: added.length + updates.length + unchanged,
      added: added.length,
      updated: updates.length,
      unchanged,
      rejected: rejected.sort((a, b) => a.row - b.row),
      skipped,
      itemIds: dryRun ? [] : [...itemIdAt].sort((a, b) => a[0] - b[0]).map(([, id]) => id),
    };
  }

  private read(
    input: ImportInput,
    language: string,
  ): { rows: CandidateRow[]; skipped: ImportReport['skipped'] } {
    switch (input.format) {
      case 'beir':
        return this.readBeir(input.queries ?? '', input.qrels ?? '', language);
      case 'csv':
        return { rows: this.readCsv(input.csv ?? '', language), skipped: null };
      case 'json':
        return { rows: this.readJson(input.items ?? [], language), skipped: null };
    }
  }

  private readBeir(queriesText: string, qrelsText: string, language: string) {
    const queries = parseBeirQueries(queriesText);
    const qrels = parseBeirQrels(qrelsText);
    if (qrels.problems.length) {
      throw new InvalidRequestError(
        qrels.problems.slice(0, 20).map((p) => `qrels line ${p.line}: ${p.reason}`),
      );
    }
    const problems: CandidateRow[] = queries.problems.map((problem) => ({
      row: problem.line,
      ...(problem.id !== undefined ? { id: problem.id } : {}),
      refs: [],
      reasons: [`queries line ${problem.line}: ${problem.reason}`],
    }));
    const read = beirRows(queries.queries, qrels.judgments, language, (queryId) => {
      const line = qrels.firstLine.get(queryId);
      return { row: line ?? 0, reason: `qrels line ${line}: query "${queryId}" is not in queries` };
    });
    return { rows: [...problems, ...read.rows].sort((a, b) => a.row - b.row), skipped: read.skipped };
  }

  private readCsv(text: string, language: string): CandidateRow[] {
    let records: { fields: string[]; line: number }[];
    try {
      records = parseCsv(text);
    } catch (error) {
      if (error instanceof CsvFormatError) throw new InvalidRequestError([error.message]);
      throw error;
    }
    if (records.length === 0) throw new InvalidRequestError(['the CSV is empty: it needs a header row']);
    const header = records[0].fields.map((name) => name.trim().toLowerCase());
    const unknown = header.filter((name) => !CSV_IMPORT_COLUMNS.has(name) && !CSV_IGNORED_COLUMNS.has(name));
    if (unknown.length) {
      throw new InvalidRequestError([
        `unknown CSV column(s) ${unknown.join(', ')}; expected ${[...CSV_IMPORT_COLUMNS].join(', ')}`,
      ]);
    }
    if (!header.includes('question')) throw new InvalidRequestError(['the CSV needs a "question" column']);
    const given = new Set(header.flatMap((name) => (CSV_FIELD[name] ? [CSV_FIELD[name]] : [])));
    return records.slice(1).map((record, index) => {
      const cell = (name: string) => {
        const at = header.indexOf(name);
        return at === -1 ? '' : restoreInertCell(record.fields[at] ?? '');
      };
      const reasons: string[] = [];
      if (record.fields.length !== header.length) {
        reasons.push(`expected ${header.length} fields, found ${record.fields.length}`);
      }
      const inScope = parseBooleanCell(cell('in_scope'));
      if (inScope === 'invalid') reasons.push(`in_scope must be true or false, found "${cell('in_scope')}"`);
      const refs: SourceReference[] = [];
      for (const [column, key] of [
        ['expected_documents', 'documentId'],
        ['expected_chunks', 'chunkId'],
      ] as const) {
        for (const part of splitList(cell(column))) {
          const parsed = parseGradedRef(part);
          if ('error' in parsed) reasons.push(`${column}: ${parsed.error}`);
          else
            refs.push({ [key]: parsed.ref, ...(parsed.grade !== undefined ? { grade: parsed.grade } : {}) });
        }
      }
      const plain: Record<string, unknown> = {
        question: cell('question'),
        ...(cell('expected_answer').trim() ? { expectedAnswer: cell('expected_answer') } : {}),
        ...(typeof inScope === 'boolean' ? { inScope } : {}),
        ...(cell('language').trim() ? { language: cell('language').trim() } : {}),
        ...(splitList(cell('tags')).length ? { tags: splitList(cell('tags')) } : {}),
        ...(cell('difficulty').trim() ? { difficulty: cell('difficulty').trim().toLowerCase() } : {}),
      };
      const itemId = cell('id').trim();
      return {
        ...this.candidate(index + 1, plain, refs, reasons, language),
        ...(itemId ? { id: itemId, itemId } : {}),
        given,
      };
    });
  }

  private readJson(items: unknown[], language: string): CandidateRow[] {
    return items.map((row, index) => {
      const candidate = this.candidate(index + 1, withoutExportFields(row), null, [], language);
      if (typeof row !== 'object' || row === null || Array.isArray(row)) return candidate;
      const id = (row as { id?: unknown }).id;
      const given = new Set(ALL_FIELDS);
      for (const field of ALL_FIELDS) if (!(field in row)) given.delete(field);
      return { ...candidate, ...(typeof id === 'string' && id ? { id, itemId: id } : {}), given };
    });
  }

  /** Checks a row with the item DTO's rules; `refs` null takes the row's own expectedSources. */
  private candidate(
    row: number,
    plain: unknown,
    refs: SourceReference[] | null,
    reasons: string[],
    language: string,
  ): CandidateRow {
    const validation = validateItemRow(plain);
    if (!validation.ok) return { row, refs: [], reasons: [...reasons, ...validation.messages] };
    const dto = validation.item;
    return {
      row,
      refs: refs ?? (dto.expectedSources ?? []).map((source) => ({ ...source })),
      reasons,
      item: {
        question: dto.question,
        expectedAnswer: dto.expectedAnswer ?? null,
        inScope: dto.inScope ?? true,
        language: dto.language ?? language,
        tags: dto.tags ?? [],
        difficulty: dto.difficulty ?? null,
      },
    };
  }
}

/** Fields an export writes that an import does not take (so an exported bank imports as it is). */
const EXPORT_ONLY_FIELDS = ['id', 'bankId', 'source', 'generator', 'metadata', 'createdAt', 'updatedAt'];

function withoutExportFields(row: unknown): unknown {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return row;
  return Object.fromEntries(Object.entries(row).filter(([key]) => !EXPORT_ONLY_FIELDS.includes(key)));
}

/**
 * One row per query that has a judgment (in queries order), citing its judged documents by external id;
 * judgments naming a query that is not there become rejected rows.
 */
function beirRows(
  queries: { line: number; id: string; text: string }[],
  judgments: Map<string, Map<string, number>>,
  language: string,
  unknownQuery: (queryId: string) => { row: number; reason: string },
): { rows: CandidateRow[]; skipped: ImportReport['skipped'] } {
  const rows: CandidateRow[] = [];
  const known = new Set(queries.map((query) => query.id));
  let withoutJudgments = 0;
  for (const query of queries) {
    const judged = judgments.get(query.id);
    if (!judged) {
      withoutJudgments++;
      continue;
    }
    rows.push({
      row: query.line,
      id: query.id,
      item: { question: query.text, inScope: true, language, metadata: { beirQueryId: query.id } },
      given: new Set<ImportableField>(['question', 'expectedSources']),
      refs: [...judged].map(([documentId, grade]) => ({ documentId, grade })),
      reasons: [],
    });
  }
  for (const queryId of judgments.keys()) {
    if (known.has(queryId)) continue;
    const { row, reason } = unknownQuery(queryId);
    rows.push({ row, id: queryId, refs: [], reasons: [reason] });
  }
  return {
    rows,
    skipped: withoutJudgments
      ? { count: withoutJudgments, reason: 'queries without a judgment in the qrels' }
      : null,
  };
}

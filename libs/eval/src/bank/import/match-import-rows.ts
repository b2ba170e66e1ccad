import type { ExpectedSource, QuestionBankItem } from '@lumina/shared';

/** The fields of an item an import can set (and so compare). */
export type ImportableFields = Pick<
  QuestionBankItem,
  'question' | 'expectedAnswer' | 'inScope' | 'expectedSources' | 'language' | 'tags' | 'difficulty'
>;

export type ImportableField = keyof ImportableFields;

export const IMPORTABLE_FIELDS: readonly ImportableField[] = [
  'question',
  'expectedAnswer',
  'inScope',
  'expectedSources',
  'language',
  'tags',
  'difficulty',
];

/** An item already in the bank, in insertion order. */
export interface ExistingItem extends ImportableFields {
  id: string;
  /** The id the item had in the file it came from (a BEIR query id), when it has one. */
  externalKey?: string | null;
}

/** An accepted row: its values, the fields it states (the others stay as they are) and its item id. */
export interface IncomingRow {
  row: number;
  itemId?: string;
  /**
   * The row's id in its source (a BEIR query id): such a row matches only the item imported from the
   * same id, never by its question, since two queries of a dataset may ask the same words.
   */
  externalKey?: string;
  values: ImportableFields;
  given: ReadonlySet<ImportableField>;
}

export type RowPlan =
  | { kind: 'add'; row: number; values: ImportableFields }
  | { kind: 'update'; row: number; id: string; changes: Partial<ImportableFields> }
  | { kind: 'unchanged'; row: number; id: string }
  | { kind: 'repeat'; row: number; reason: string };

/** The key two questions share when they differ only in case and whitespace. */
export function questionKey(question: string): string {
  return question.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Decides, row by row, what an import does with the bank: a row whose id names an item of the bank
 * updates that item; otherwise a row asking an item's question (case and whitespace aside) updates it;
 * otherwise it is added. A matched row whose stated fields equal the item's changes nothing (a row found
 * by its question does not rewrite the question for case or spacing). A row that
 * repeats the id or the question of an earlier row of the same import is refused, so an import never
 * writes the same question twice.
 */
export function matchImportRows(existing: ExistingItem[], rows: IncomingRow[]): RowPlan[] {
  const byId = new Map(existing.map((item) => [item.id.toLowerCase(), item]));
  const byKey = new Map<string, ExistingItem[]>();
  for (const item of existing) {
    const key = questionKey(item.question);
    byKey.set(key, [...(byKey.get(key) ?? []), item]);
  }
  const claimed = new Set<string>();
  const idRows = new Map<string, number>();
  const keyRows = new Map<string, number>();

  const byExternal = new Map<string, ExistingItem>();
  for (const item of existing) {
    if (item.externalKey && !byExternal.has(item.externalKey)) byExternal.set(item.externalKey, item);
  }
  const externalRows = new Map<string, number>();

  return rows.map((row): RowPlan => {
    if (row.externalKey !== undefined) {
      const key = row.externalKey;
      if (externalRows.has(key)) {
        return { kind: 'repeat', row: row.row, reason: `repeats the id of row ${externalRows.get(key)}` };
      }
      externalRows.set(key, row.row);
      const found = byExternal.get(key);
      if (!found || claimed.has(found.id)) return { kind: 'add', row: row.row, values: row.values };
      claimed.add(found.id);
      return compare(row, found, false);
    }
    const id = row.itemId?.toLowerCase();
    const key = questionKey(row.values.question);
    if (id !== undefined && idRows.has(id)) {
      return { kind: 'repeat', row: row.row, reason: `repeats the id of row ${idRows.get(id)}` };
    }
    let match = id !== undefined ? byId.get(id) : undefined;
    if (match && claimed.has(match.id)) match = undefined;
    const byQuestion = !match;
    if (!match) {
      if (keyRows.has(key)) {
        return { kind: 'repeat', row: row.row, reason: `repeats the question of row ${keyRows.get(key)}` };
      }
      match = (byKey.get(key) ?? []).find((item) => !claimed.has(item.id));
    }
    if (id !== undefined) idRows.set(id, row.row);
    if (!keyRows.has(key)) keyRows.set(key, row.row);
    if (!match) return { kind: 'add', row: row.row, values: row.values };
    claimed.add(match.id);
    return compare(row, match, byQuestion);
  });
}

/** Update or unchanged: the fields the row states that differ from the item's. */
function compare(row: IncomingRow, match: ExistingItem, byQuestion: boolean): RowPlan {
  const changes: Partial<ImportableFields> = {};
  for (const field of IMPORTABLE_FIELDS) {
    // A row found by its question asks the same question: case and spacing are not a change.
    if (field === 'question' && byQuestion) continue;
    if (!row.given.has(field) || sameValue(field, match[field], row.values[field])) continue;
    (changes as Record<ImportableField, unknown>)[field] = row.values[field];
  }
  return Object.keys(changes).length
    ? { kind: 'update', row: row.row, id: match.id, changes }
    : { kind: 'unchanged', row: row.row, id: match.id };
}

function sameValue<F extends ImportableField>(
  field: F,
  a: ImportableFields[F],
  b: ImportableFields[F],
): boolean {
  switch (field) {
    case 'question':
      return (a as string).trim() === (b as string).trim();
    case 'tags':
      return sameSet(a as string[], b as string[]);
    case 'expectedSources':
      return sameSet((a as ExpectedSource[]).map(sourceKey), (b as ExpectedSource[]).map(sourceKey));
    default:
      return (a ?? null) === (b ?? null);
  }
}

/** A source's identity and grade; no grade means the default grade 1. */
function sourceKey(source: ExpectedSource): string {
  return `${source.documentId ?? ''}|${source.chunkId ?? ''}|${source.grade ?? 1}`;
}

function sameSet(a: string[], b: string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((value) => right.has(value));
}

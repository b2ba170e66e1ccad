import { IMPORTABLE_FIELDS, matchImportRows } from './match-import-rows';
import type { ExistingItem, ImportableField, ImportableFields, IncomingRow } from './match-import-rows';

const DOC = '11111111-1111-4111-8111-111111111111';
const ALL = new Set<ImportableField>(IMPORTABLE_FIELDS);

function item(id: string, question: string, extra: Partial<ImportableFields> = {}): ExistingItem {
  return {
    id,
    question,
    expectedAnswer: null,
    inScope: true,
    expectedSources: [{ documentId: DOC }],
    language: 'en',
    tags: ['a', 'b'],
    difficulty: null,
    ...extra,
  };
}

function row(
  at: number,
  question: string,
  extra: Partial<ImportableFields> = {},
  options: { itemId?: string; given?: Set<ImportableField> } = {},
): IncomingRow {
  const { id: _id, ...values } = item('x', question, extra);
  return {
    row: at,
    values,
    given: options.given ?? ALL,
    ...(options.itemId ? { itemId: options.itemId } : {}),
  };
}

describe('matchImportRows', () => {
  it('leaves an item unchanged when the row says the same, whether matched by id or by question', () => {
    const existing = [item('id-1', 'What is WAL?'), item('id-2', 'Who holds the queues?')];
    const plans = matchImportRows(existing, [
      row(
        1,
        'What is WAL?',
        { tags: ['b', 'a'], expectedSources: [{ documentId: DOC, grade: 1 }] },
        { itemId: 'ID-1' },
      ),
      row(2, '  who HOLDS   the queues? '),
    ]);
    expect(plans).toEqual([
      { kind: 'unchanged', row: 1, id: 'id-1' },
      { kind: 'unchanged', row: 2, id: 'id-2' },
    ]);
  });

  it('updates only the fields that differ, and only those the row states', () => {
    const existing = [item('id-1', 'What is WAL?', { expectedAnswer: 'a log' })];
    const byId = matchImportRows(existing, [
      row(1, 'What is the WAL?', { difficulty: 'hard' }, { itemId: 'id-1' }),
    ]);
    expect(byId).toEqual([
      {
        kind: 'update',
        row: 1,
        id: 'id-1',
        changes: { question: 'What is the WAL?', expectedAnswer: null, difficulty: 'hard' },
      },
    ]);
    const partial = matchImportRows(existing, [
      row(1, 'what is wal?', { difficulty: 'hard' }, { given: new Set(['question', 'difficulty']) }),
    ]);
    expect(partial).toEqual([{ kind: 'update', row: 1, id: 'id-1', changes: { difficulty: 'hard' } }]);
  });

  it('adds rows that match nothing, and an id from another bank falls back to the question', () => {
    const plans = matchImportRows(
      [item('id-1', 'What is WAL?')],
      [row(1, 'A new question'), row(2, 'What is WAL?', {}, { itemId: 'elsewhere' })],
    );
    expect(plans.map((plan) => plan.kind)).toEqual(['add', 'unchanged']);
  });

  it('refuses a row that repeats the question or the id of an earlier row of the same import', () => {
    const plans = matchImportRows(
      [item('id-1', 'What is WAL?')],
      [
        row(1, 'New one'),
        row(2, 'new   ONE'),
        row(3, 'What is WAL?', {}, { itemId: 'id-1' }),
        row(4, 'Something else', {}, { itemId: 'id-1' }),
      ],
    );
    expect(plans).toEqual([
      expect.objectContaining({ kind: 'add', row: 1 }),
      { kind: 'repeat', row: 2, reason: 'repeats the question of row 1' },
      { kind: 'unchanged', row: 3, id: 'id-1' },
      { kind: 'repeat', row: 4, reason: 'repeats the id of row 3' },
    ]);
  });

  it('keeps duplicates a bank already has apart when each row names its own item', () => {
    const existing = [item('id-1', 'Same?'), item('id-2', 'Same?')];
    const plans = matchImportRows(existing, [
      row(1, 'Same?', {}, { itemId: 'id-2' }),
      row(2, 'Same?', {}, { itemId: 'id-1' }),
    ]);
    expect(plans).toEqual([
      { kind: 'unchanged', row: 1, id: 'id-2' },
      { kind: 'unchanged', row: 2, id: 'id-1' },
    ]);
  });

  it('matches rows with a source id (BEIR queries) only by that id, so equal questions stay apart', () => {
    const existing = [{ ...item('id-1', 'same words'), externalKey: 'q1' }];
    const plans = matchImportRows(existing, [
      { ...row(1, 'same words'), externalKey: 'q1' },
      { ...row(2, 'same words'), externalKey: 'q2' },
      { ...row(3, 'other words'), externalKey: 'q2' },
    ]);
    expect(plans).toEqual([
      { kind: 'unchanged', row: 1, id: 'id-1' },
      expect.objectContaining({ kind: 'add', row: 2 }),
      { kind: 'repeat', row: 3, reason: 'repeats the id of row 2' },
    ]);
  });
});

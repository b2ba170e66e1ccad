import { join } from 'node:path';
import { BeirFormatError } from './beir-format-error';
import { memoryDatasetFiles } from './dataset-files';
import { loadBeirDataset } from './load-beir-dataset';
import type { LoadBeirOptions } from './load-beir-dataset';

const root = '/datasets';
let folders = 0;
/** Every dataset folder written so far, in memory. */
const written: Record<string, string> = {};
const files = memoryDatasetFiles(written);

const CORPUS = [
  '{"_id":"d1","title":"Alpha","text":"first doc","metadata":{"url":"https://example.org"}}',
  '',
  '{"_id":2,"text":"second doc"}',
  '{"_id":"d3","title":"","text":"third"}',
].join('\n');
const QUERIES = [
  '{"_id":"q1","text":"what is alpha"}',
  '{"_id":"q2","text":"second?"}',
  '{"_id":"q3","text":"no judgments"}',
  '{"_id":"q4","text":"only non-relevant"}',
].join('\n');
const QRELS = ['query-id\tcorpus-id\tscore', 'q2\t2\t1', 'q1\td1\t2', 'q1\td3\t0', 'q4\td3\t0', ''].join(
  '\n',
);

/** Writes a dataset folder; `null` leaves a file out. Paths are relative to the folder. */
function dataset(files: Record<string, string | null> = {}): string {
  const dir = join(root, `dataset-${++folders}`);
  const all: Record<string, string | null> = {
    'corpus.jsonl': CORPUS,
    'queries.jsonl': QUERIES,
    'qrels/test.tsv': QRELS,
    ...files,
  };
  for (const [name, content] of Object.entries(all)) {
    if (content !== null) written[join(dir, name)] = content;
  }
  return dir;
}

async function loadError(dir: string, split?: string, options?: LoadBeirOptions): Promise<BeirFormatError> {
  try {
    await loadBeirDataset(files, dir, split, options);
  } catch (error) {
    if (error instanceof BeirFormatError) return error;
    throw error;
  }
  throw new Error('expected loadBeirDataset to fail');
}

describe('loadBeirDataset', () => {
  it('loads corpus, queries and qrels, skipping blank lines and the qrels header', async () => {
    const dir = dataset();
    const data = await loadBeirDataset(files, dir);
    expect(data.dir).toBe(dir);
    expect(data.split).toBe('test');
    // 4 corpus lines, one blank -> 3 documents; numeric _id 2 becomes "2"; missing title becomes ""
    expect([...data.corpus.values()]).toEqual([
      { id: 'd1', title: 'Alpha', text: 'first doc' },
      { id: '2', title: '', text: 'second doc' },
      { id: 'd3', title: '', text: 'third' },
    ]);
    expect([...data.queries.entries()]).toEqual([
      ['q1', 'what is alpha'],
      ['q2', 'second?'],
      ['q3', 'no judgments'],
      ['q4', 'only non-relevant'],
    ]);
    // 5 qrels lines: header skipped, 4 judgments over 3 queries, in file order
    expect([...data.qrels.entries()].map(([q, docs]) => [q, [...docs.entries()]])).toEqual([
      ['q2', [['2', 1]]],
      [
        'q1',
        [
          ['d1', 2],
          ['d3', 0],
        ],
      ],
      ['q4', [['d3', 0]]],
    ]);
  });

  it('accepts qrels without a header, CRLF line ends, a byte order mark and other splits', async () => {
    const dir = dataset({
      'corpus.jsonl': '\uFEFF{"_id":"d1","title":"T","text":"x"}\r\n{"_id":"d2","title":"U","text":"y"}\r\n',
      'queries.jsonl': '{"_id":"q1","text":"a"}\r\n',
      'qrels/test.tsv': null,
      'qrels/dev.tsv': 'q1\td2\t1\r\nq1\td1\t0\r\n',
    });
    const data = await loadBeirDataset(files, dir, 'dev');
    expect(data.split).toBe('dev');
    expect([...data.corpus.keys()]).toEqual(['d1', 'd2']);
    expect(data.corpus.get('d2')).toEqual({ id: 'd2', title: 'U', text: 'y' });
    expect(data.qrels).toEqual(
      new Map([
        [
          'q1',
          new Map([
            ['d2', 1],
            ['d1', 0],
          ]),
        ],
      ]),
    );
  });

  it('accepts a judgment repeated with the same score once', async () => {
    const dir = dataset({ 'qrels/test.tsv': 'q1\td1\t1\nq1\td1\t1\n' });
    expect((await loadBeirDataset(files, dir)).qrels).toEqual(new Map([['q1', new Map([['d1', 1]])]]));
  });

  describe('missing files', () => {
    it('names a missing file and the expected layout', async () => {
      const dir = dataset({ 'queries.jsonl': null });
      const error = await loadError(dir);
      expect(error.file).toBe(join(dir, 'queries.jsonl'));
      expect(error.line).toBeUndefined();
      expect(error.message).toBe(
        `${join(dir, 'queries.jsonl')}: file is missing; ` +
          'a BEIR dataset folder must contain corpus.jsonl, queries.jsonl and qrels/test.tsv',
      );
    });

    it('lists the splits present when the requested qrels file is missing', async () => {
      const dir = dataset({ 'qrels/train.tsv': 'q1\td1\t1\n', 'qrels/dev.tsv': 'q1\td1\t1\n' });
      const error = await loadError(dir, 'validation');
      expect(error.message).toContain(`${join(dir, 'qrels', 'validation.tsv')}: file is missing`);
      expect(error.message).toContain('qrels/validation.tsv');
      expect(error.message).toContain('(splits present: dev, test, train)');
    });

    it('reports a missing folder', async () => {
      const error = await loadError(join(root, 'does-not-exist'));
      expect(error.message).toContain('does-not-exist: dataset folder not found');
      expect(error.message).toContain('must contain corpus.jsonl, queries.jsonl and qrels/test.tsv');
    });

    it('rejects split names that are paths', async () => {
      await expect(loadBeirDataset(files, dataset(), '../test')).rejects.toThrow(
        'Invalid split name "../test"',
      );
    });
  });

  describe('JSONL errors name the file and line', () => {
    it('reports malformed JSON', async () => {
      // line 1 ok, line 2 blank, line 3 broken
      const dir = dataset({ 'corpus.jsonl': '{"_id":"d1","text":"x"}\n\n{"_id":"d2","text":\n' });
      const error = await loadError(dir);
      expect(error.file).toBe(join(dir, 'corpus.jsonl'));
      expect(error.line).toBe(3);
      expect(error.message).toMatch(/corpus\.jsonl line 3: malformed JSON \(.+\)$/);
    });

    it('reports a line that is not an object', async () => {
      const error = await loadError(dataset({ 'queries.jsonl': '{"_id":"q1","text":"a"}\n["q2","b"]\n' }));
      expect(error.message).toContain('queries.jsonl line 2: expected a JSON object, found an array');
    });

    it('reports a missing _id', async () => {
      const error = await loadError(dataset({ 'queries.jsonl': '{"_id":"q1","text":"a"}\n{"text":"b"}\n' }));
      expect(error.message).toContain('queries.jsonl line 2: missing "_id"');
    });

    it('reports an _id of the wrong type', async () => {
      const error = await loadError(dataset({ 'corpus.jsonl': '{"_id":true,"text":"a"}\n' }));
      expect(error.message).toContain(
        'corpus.jsonl line 1: "_id" must be a string or a number, found boolean true',
      );
    });

    it('reports text that is not a string', async () => {
      const error = await loadError(
        dataset({
          'corpus.jsonl': '{"_id":"d1","title":"T","text":"ok"}\n{"_id":"d2","title":"T","text":42}\n',
        }),
      );
      expect(error.message).toContain('corpus.jsonl line 2: "text" must be a string, found number 42');
    });

    it('reports a missing query text and a title of the wrong type', async () => {
      const missingText = await loadError(dataset({ 'queries.jsonl': '{"_id":"q1"}\n' }));
      expect(missingText.message).toContain('queries.jsonl line 1: "text" must be a string, found nothing');
      const badTitle = await loadError(
        dataset({ 'corpus.jsonl': '{"_id":"d1","title":["a"],"text":"x"}\n' }),
      );
      expect(badTitle.message).toContain('corpus.jsonl line 1: "title" must be a string, found an array');
    });

    it('reports duplicate ids, including a number colliding with its string form', async () => {
      const queries = await loadError(
        dataset({
          'queries.jsonl': '{"_id":"q1","text":"a"}\n{"_id":"q2","text":"b"}\n{"_id":"q1","text":"c"}\n',
        }),
      );
      expect(queries.message).toContain('queries.jsonl line 3: duplicate _id "q1"');
      const corpus = await loadError(
        dataset({ 'corpus.jsonl': '{"_id":7,"text":"a"}\n{"_id":"7","text":"b"}\n' }),
      );
      expect(corpus.message).toContain('corpus.jsonl line 2: duplicate _id "7"');
    });
  });

  describe('qrels errors name the file and line', () => {
    const qrelsFile = join('qrels', 'test.tsv');

    it('reports a wrong column count', async () => {
      // header on line 1, good judgment on line 2, four columns (TREC style) on line 3
      const error = await loadError(
        dataset({ 'qrels/test.tsv': 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\t0\td3\t1\n' }),
      );
      expect(error.line).toBe(3);
      expect(error.message).toContain(
        `${qrelsFile} line 3: expected 3 tab-separated columns (query-id, corpus-id, score), found 4`,
      );
    });

    it('hints at tabs when a line is space-separated', async () => {
      const error = await loadError(dataset({ 'qrels/test.tsv': 'q1 d1 1\n' }));
      expect(error.message).toContain(`${qrelsFile} line 1: expected 3 tab-separated columns`);
      expect(error.message).toContain('found 1 (columns must be separated by tabs)');
    });

    it('reports a non-integer score', async () => {
      const error = await loadError(dataset({ 'qrels/test.tsv': 'q1\td1\t1\n\nq2\t2\t0.5\n' }));
      expect(error.message).toContain(`${qrelsFile} line 3: score must be an integer, found "0.5"`);
    });

    it('treats a header-like line after the first as an error', async () => {
      const error = await loadError(dataset({ 'qrels/test.tsv': 'q1\td1\t1\nquery-id\tcorpus-id\tscore\n' }));
      expect(error.message).toContain(`${qrelsFile} line 2: score must be an integer, found "score"`);
    });

    it('reports conflicting judgments for the same pair', async () => {
      const error = await loadError(dataset({ 'qrels/test.tsv': 'q1\td1\t1\nq1\td1\t2\n' }));
      expect(error.message).toContain(
        `${qrelsFile} line 2: conflicting judgments for query "q1" and document "d1": 2 here, 1 earlier`,
      );
    });

    it('rejects unknown queries and documents unless allowed', async () => {
      const unknownQuery = dataset({ 'qrels/test.tsv': 'q1\td1\t1\nq9\td1\t1\n' });
      expect((await loadError(unknownQuery)).message).toContain(
        `${qrelsFile} line 2: query "q9" is not in queries.jsonl (use allowUnknownQrels to keep such judgments)`,
      );
      const unknownDocument = dataset({ 'qrels/test.tsv': 'q1\td1\t1\nq1\td9\t1\nq1\td3\t0\n' });
      expect((await loadError(unknownDocument)).message).toContain(
        `${qrelsFile} line 2: document "d9" is not in corpus.jsonl`,
      );

      const allowed = await loadBeirDataset(files, unknownDocument, 'test', { allowUnknownQrels: true });
      expect(allowed.qrels).toEqual(
        new Map([
          [
            'q1',
            new Map([
              ['d1', 1],
              ['d9', 1],
              ['d3', 0],
            ]),
          ],
        ]),
      );
    });
  });
});

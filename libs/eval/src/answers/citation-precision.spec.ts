import { citationPrecision } from './answer-metrics';
import { checkCitations, markerQuotes, passageHoldsQuote } from './citation-precision';

const passages = new Map([
  ['c1', 'Backups run nightly at two. Logs rotate weekly.'],
  ['c3', 'Run `pg_ctl promote` on the standby.\n\n| Key | Default |\n| --- | --- |\n| timeout | 30 s |'],
]);
const textOf = (id: string) => passages.get(id);

describe('citation precision', () => {
  it('reads each marker with the text it closes, skipping fenced code', () => {
    expect(
      markerQuotes('First quote. [1]\n\n```js\nconst a = b[2];\n```\n\nSecond. Third [2][3]\n\nTail [4, 5]'),
    ).toEqual([
      { marker: 1, quote: 'First quote.' },
      { marker: 2, quote: 'Second. Third' },
      { marker: 3, quote: 'Second. Third' },
      { marker: 4, quote: 'Tail' },
      { marker: 5, quote: 'Tail' },
    ]);
  });

  it('holds a quote made of sentences of the passage, a table row read as a row, a cut sentence', () => {
    expect(passageHoldsQuote(passages.get('c1')!, 'Backups run nightly at two. Logs rotate weekly.')).toBe(
      true,
    );
    expect(passageHoldsQuote(passages.get('c1')!, 'Logs rotate weekly. Backups run nightly at two.')).toBe(
      true,
    );
    expect(passageHoldsQuote(passages.get('c3')!, 'timeout — 30 s')).toBe(true);
    expect(passageHoldsQuote(passages.get('c1')!, 'Backups run nig…')).toBe(true);
    expect(passageHoldsQuote(passages.get('c1')!, 'Backups run hourly.')).toBe(false);
    // Runs of fewer than three words are found anywhere: they do not count as quoted.
    expect(passageHoldsQuote(passages.get('c1')!, 'Backups run weekly at two.')).toBe(false);
    expect(passageHoldsQuote(passages.get('c1')!, '')).toBe(false);
  });

  it('holds a sentence quoted from a block quote without its > marks', () => {
    const quoted =
      '> **IMPORTANT**\n> The default value is set to `true`\n> and it is highly advised to keep it.';
    expect(
      passageHoldsQuote(
        quoted,
        '**IMPORTANT** The default value is set to `true` and it is highly advised to keep it.',
      ),
    ).toBe(true);
    expect(passageHoldsQuote(quoted, 'The default value is set to `false` and it is advised.')).toBe(false);
  });

  it('holds a table quoted as its header and one row, each line from the passage', () => {
    const table = '| Key | Default |\n| --- | --- |\n| timeout | 30 s |';
    const [{ quote }] = markerQuotes(table.replace('30 s |', '30 s [1] |'));
    expect(passageHoldsQuote(passages.get('c3')!, quote)).toBe(true);
    expect(passageHoldsQuote(passages.get('c3')!, quote.replace('timeout', 'retries'))).toBe(false);
    expect(passageHoldsQuote(passages.get('c1')!, quote)).toBe(false);
    expect(passageHoldsQuote(passages.get('c3')!, '| --- |\n| --- |')).toBe(false);
  });

  it('counts a marker precise only when the passage it opens holds its quote', () => {
    const answer =
      'Run `pg_ctl promote` on the standby. [1]\n\nBackups run nightly at two. [2]\n\nLogs rotate weekly. [3]';
    // [1] and [2] open the right passages; [3] opens the wrong one; a fourth marker names nothing.
    const check = checkCitations(
      `${answer}\n\nNothing. [4]`,
      [
        { marker: 1, chunkId: 'c3' },
        { marker: 2, chunkId: 'c1' },
        { marker: 3, chunkId: 'c3' },
      ],
      textOf,
    );
    expect(check).toEqual({ markers: 4, precise: 2, imprecise: [3, 4] });
    // What the positional bug did: [1] taken as the first passage in the list.
    expect(checkCitations(answer, [{ marker: 1, chunkId: 'c1' }], textOf).imprecise).toEqual([1, 2, 3]);
  });

  it('pools markers over answers', () => {
    const rate = citationPrecision([
      { markers: 3, precise: 3, imprecise: [] },
      null,
      { markers: 1, precise: 0, imprecise: [1] },
    ]);
    expect(rate).toEqual(expect.objectContaining({ count: 3, items: 4, rate: 0.75 }));
  });
});

import { DEFAULT_ABBREVIATIONS, splitSentences } from './sentence-splitter';
import type { SentenceSplitterOptions } from './sentence-splitter';

function sentences(text: string, options?: SentenceSplitterOptions): string[] {
  return splitSentences(text, options).map((span) => text.slice(span.start, span.end));
}

describe('splitSentences', () => {
  it('splits Chinese and Japanese at 。！？ and ； with no space after them', () => {
    expect(
      sentences('丹佛野马队赢得了比赛。他们的防守很强！谁是最有价值球员？答案是米勒；他是后卫。'),
    ).toEqual([
      '丹佛野马队赢得了比赛。',
      '他们的防守很强！',
      '谁是最有价值球员？',
      '答案是米勒；',
      '他是后卫。',
    ]);
    expect(sentences('「東京に行きます。」と彼は言った。')).toEqual([
      '「東京に行きます。」',
      'と彼は言った。',
    ]);
  });

  it('keeps a Chinese sentence whole when English in it has a period', () => {
    expect(sentences('他在 U.S. 工作。然后回国。')).toEqual(['他在 U.S. 工作。', '然后回国。']);
  });

  it('splits on . ! and ? followed by whitespace and a capital letter', () => {
    expect(sentences('It works. Does it? Yes! Good.')).toEqual(['It works.', 'Does it?', 'Yes!', 'Good.']);
  });

  it('returns spans in order that start and end on non-whitespace', () => {
    const text = '  First one.   Second one.\n\n\n  Third one.  ';
    const spans = splitSentences(text);
    expect(spans).toEqual([
      { start: 2, end: 12 },
      { start: 15, end: 26 },
      { start: 31, end: 41 },
    ]);
  });

  it('returns nothing for empty or whitespace-only text', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences(' \n\t\n  ')).toEqual([]);
  });

  it('does not split before a lowercase word', () => {
    expect(sentences('Version 2. is out. we ship. Next.')).toEqual(['Version 2. is out. we ship.', 'Next.']);
  });

  it('splits before digits, quotes and opening brackets', () => {
    expect(sentences('Count is low. 42 items left.')).toEqual(['Count is low.', '42 items left.']);
    expect(sentences('He left. "Bye," he said.')).toEqual(['He left.', '"Bye," he said.']);
    expect(sentences('Done. (See the appendix.) Then stop.')).toEqual([
      'Done.',
      '(See the appendix.)',
      'Then stop.',
    ]);
    expect(sentences('Es ist fertig. Über alles.')).toEqual(['Es ist fertig.', 'Über alles.']);
  });

  it('keeps closing quotes and brackets with the sentence they end', () => {
    expect(sentences('She said "Stop." Then she left.')).toEqual(['She said "Stop."', 'Then she left.']);
    expect(sentences('Is it (really?) Sure.')).toEqual(['Is it (really?)', 'Sure.']);
    expect(sentences('“Quoted.” Next one.')).toEqual(['“Quoted.”', 'Next one.']);
  });

  it('treats runs of terminators as one boundary', () => {
    expect(sentences('Wait... What?! Really.')).toEqual(['Wait...', 'What?!', 'Really.']);
  });

  it('requires whitespace after the terminator', () => {
    expect(sentences('See example.com/Path or v1.Two for details. Done.')).toEqual([
      'See example.com/Path or v1.Two for details.',
      'Done.',
    ]);
  });

  it('does not split after abbreviations', () => {
    expect(sentences('Dr. Smith and Mr. Jones met Mrs. Brown and Ms. Green. They talked.')).toEqual([
      'Dr. Smith and Mr. Jones met Mrs. Brown and Ms. Green.',
      'They talked.',
    ]);
    expect(sentences('Use a cache, e.g. Redis, i.e. In-memory storage. Then measure.')).toEqual([
      'Use a cache, e.g. Redis, i.e. In-memory storage.',
      'Then measure.',
    ]);
    expect(sentences('See Fig. 3, Figs. 4 and 5, Eq. 2 and Prof. Xu. Next.')).toEqual([
      'See Fig. 3, Figs. 4 and 5, Eq. 2 and Prof. Xu.',
      'Next.',
    ]);
    expect(sentences('As shown by Smith et al. The effect holds. Done.')).toEqual([
      'As shown by Smith et al. The effect holds.',
      'Done.',
    ]);
    expect(
      sentences('Ali vs. Frazier, approx. 15 rounds, No. 1 in Vol. 2, pp. 10-12, cf. Table 1. End.'),
    ).toEqual(['Ali vs. Frazier, approx. 15 rounds, No. 1 in Vol. 2, pp. 10-12, cf. Table 1.', 'End.']);
    expect(sentences('St. Louis hosts Martin Jr. And Sr. Staff of the U.S. Army. Fine.')).toEqual([
      'St. Louis hosts Martin Jr. And Sr. Staff of the U.S. Army.',
      'Fine.',
    ]);
  });

  it('matches abbreviations capitalised at the start of a sentence and inside brackets', () => {
    expect(sentences('E.g. This one. Cf. That one. (e.g. Redis) works.')).toEqual([
      'E.g. This one.',
      'Cf. That one.',
      '(e.g. Redis) works.',
    ]);
  });

  it('lets "etc." end a sentence unless a lowercase word follows', () => {
    expect(sentences('Bring pens, paper, etc. and snacks. Apples, pears, etc. Then leave.')).toEqual([
      'Bring pens, paper, etc. and snacks.',
      'Apples, pears, etc.',
      'Then leave.',
    ]);
    expect(DEFAULT_ABBREVIATIONS).not.toContain('etc.');
  });

  it('does not split decimals', () => {
    expect(sentences('Pi is 3.14 and e is 2.718. Both are irrational.')).toEqual([
      'Pi is 3.14 and e is 2.718.',
      'Both are irrational.',
    ]);
  });

  it('does not split after single-letter initials', () => {
    expect(sentences('J. R. R. Tolkien wrote it. H. G. Wells did not.')).toEqual([
      'J. R. R. Tolkien wrote it.',
      'H. G. Wells did not.',
    ]);
  });

  it('keeps a list number at the start of a line with its sentence', () => {
    expect(sentences('Steps follow.\n1. Install it.\n2. Run it.\n  10. Stop it.')).toEqual([
      'Steps follow.',
      '1. Install it.',
      '2. Run it.',
      '10. Stop it.',
    ]);
    expect(sentences('We counted 2. Then we left.')).toEqual(['We counted 2.', 'Then we left.']);
  });

  it('splits on blank lines but not on single line breaks', () => {
    expect(sentences('A heading without stop\n\nA wrapped\nsentence here.\nNext line. \n \t\nLast')).toEqual([
      'A heading without stop',
      'A wrapped\nsentence here.',
      'Next line.',
      'Last',
    ]);
    expect(sentences('Windows\r\n\r\nline endings')).toEqual(['Windows', 'line endings']);
  });

  it('accepts a custom abbreviation list', () => {
    expect(sentences('Dr. Smith works at Acme Inc. Daily.', { abbreviations: ['Inc.'] })).toEqual([
      'Dr.',
      'Smith works at Acme Inc. Daily.',
    ]);
    expect(sentences('See op. cit. Page one.', { abbreviations: ['op.  cit.'] })).toEqual([
      'See op. cit. Page one.',
    ]);
  });
});

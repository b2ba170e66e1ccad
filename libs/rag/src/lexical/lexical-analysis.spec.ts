import { analyseForIndex, analyseQuery, lexicalText } from './lexical-analysis';

describe('lexical analysis', () => {
  it('analyses a chunk with its configuration over its segmented text', () => {
    expect(analyseForIndex('Promote the standby.', 'english')).toEqual({
      config: 'english',
      text: 'Promote the standby.',
    });
    expect(analyseForIndex('超级碗', 'simple')).toEqual({ config: 'simple', text: ' 超级 碗 ' });
  });

  it('analyses a query once for each configuration of the corpus, with the same segmentation', () => {
    expect(analyseQuery('谁赢了超级碗', ['simple', 'english', 'simple'], 'simple')).toEqual([
      { config: 'english', text: ' 谁 赢了 超级 碗 ' },
      { config: 'simple', text: ' 谁 赢了 超级 碗 ' },
    ]);
  });

  it('uses the fallback configuration for an empty corpus', () => {
    expect(analyseQuery('failover', [], 'simple')).toEqual([{ config: 'simple', text: 'failover' }]);
  });

  it('normalises to NFC, so a nukta letter typed precomposed or as base plus mark is one word', () => {
    const precomposed = '\u095B'; // DEVANAGARI LETTER ZA: NFC writes it as JA + NUKTA
    const decomposed = '\u091C\u093C';
    expect(lexicalText(`${precomposed}रा`)).toBe(lexicalText(`${decomposed}रा`));
    expect(analyseForIndex('cafe\u0301', 'simple').text).toBe('caf\u00e9');
    expect(analyseQuery('caf\u00e9', ['simple'], 'simple')[0]!.text).toBe('caf\u00e9');
  });
});

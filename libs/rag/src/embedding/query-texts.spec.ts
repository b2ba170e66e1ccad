import { queryTexts } from './query-texts';

describe('queryTexts', () => {
  it("puts the model's query prefix before each query", () => {
    const bge = { queryPrefix: 'Represent this sentence for searching relevant passages: ' };
    expect(queryTexts(bge, ['what is BM25?', ''])).toEqual([
      'Represent this sentence for searching relevant passages: what is BM25?',
      'Represent this sentence for searching relevant passages: ',
    ]);
  });

  it('leaves the texts as they are for a model without one', () => {
    const texts = ['what is BM25?'];
    expect(queryTexts({}, texts)).toBe(texts);
    expect(queryTexts({ queryPrefix: '' }, texts)).toBe(texts);
  });
});

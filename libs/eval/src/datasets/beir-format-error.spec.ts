import { BeirFormatError } from './beir-format-error';

describe('BeirFormatError', () => {
  it('prefixes the message with the file and, when known, the line', () => {
    const withLine = new BeirFormatError('missing "_id"', 'data/queries.jsonl', 12);
    expect(withLine.message).toBe('data/queries.jsonl line 12: missing "_id"');
    expect(withLine).toMatchObject({ name: 'BeirFormatError', file: 'data/queries.jsonl', line: 12 });
    expect(withLine).toBeInstanceOf(Error);

    const withoutLine = new BeirFormatError('file is missing', 'data/corpus.jsonl');
    expect(withoutLine.message).toBe('data/corpus.jsonl: file is missing');
    expect(withoutLine.line).toBeUndefined();
  });
});

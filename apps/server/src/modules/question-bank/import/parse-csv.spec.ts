import { csvField, CsvFormatError, parseCsv } from './parse-csv';

describe('parseCsv', () => {
  it('reads quoted fields with commas, quotes and line breaks, CRLF or LF, and skips blank lines', () => {
    const text = '\ufeffa,b,c\r\n"x, y","say ""hi""","two\nlines"\n\nlast,,\n';
    expect(parseCsv(text)).toEqual([
      { fields: ['a', 'b', 'c'], line: 1 },
      { fields: ['x, y', 'say "hi"', 'two\nlines'], line: 2 },
      { fields: ['last', '', ''], line: 5 },
    ]);
  });

  it('keeps a final row without a line end, and an empty quoted field', () => {
    expect(parseCsv('a,b\n"",x')).toEqual([
      { fields: ['a', 'b'], line: 1 },
      { fields: ['', 'x'], line: 2 },
    ]);
  });

  it('refuses a quote that is never closed', () => {
    expect(() => parseCsv('a\n"open')).toThrow(CsvFormatError);
  });

  it('round-trips what csvField writes', () => {
    const values = ['plain', 'with, comma', 'a "quote"', 'multi\r\nline', ' padded ', ''];
    expect(parseCsv(values.map(csvField).join(','))[0].fields).toEqual(values);
  });
});

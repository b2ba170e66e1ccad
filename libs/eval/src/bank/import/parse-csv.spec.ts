import { csvField, CsvFormatError, inertCsvField, parseCsv, restoreInertCell } from './parse-csv';

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

describe('inertCsvField', () => {
  it('prefixes cells a spreadsheet would run as a formula with a single quote', () => {
    expect(inertCsvField('=HYPERLINK("http://evil.example","x")')).toBe(
      '"\'=HYPERLINK(""http://evil.example"",""x"")"',
    );
    expect(inertCsvField('+1')).toBe("'+1");
    expect(inertCsvField('-2+3')).toBe("'-2+3");
    expect(inertCsvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(inertCsvField('\t=1')).toBe("'\t=1");
    expect(inertCsvField('\r=1')).toBe('"\'\r=1"');
  });

  it('leaves other cells as csvField writes them', () => {
    for (const value of ['What is 1+1?', 'a=b', '', 'x, y', "it's"])
      expect(inertCsvField(value)).toBe(csvField(value));
  });

  it('round-trips through parseCsv and restoreInertCell', () => {
    const values = ['=HYPERLINK("x")', '+1', '-', '@a', '\t=1', 'plain', "'quoted", "'=already", "''+x"];
    const parsed = parseCsv(values.map(inertCsvField).join(','))[0].fields;
    expect(parsed.slice(0, 5).every((cell) => cell.startsWith("'"))).toBe(true);
    expect(parsed.map(restoreInertCell)).toEqual(values);
  });
});

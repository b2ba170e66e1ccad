/**
 * RFC 4180 CSV: comma-separated fields, double-quoted fields may hold commas, quotes ("") and line
 * breaks; CRLF or LF line ends; a UTF-8 byte-order mark is ignored. Returns rows of fields with the
 * 1-based line each row starts on; blank lines are dropped.
 */
export function parseCsv(text: string): { fields: string[]; line: number }[] {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: { fields: string[]; line: number }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let fieldStarted = false;
  const endRow = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === '' && !fieldStarted)) rows.push({ fields, line: rowLine });
    fields = [];
    field = '';
    fieldStarted = false;
  };
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (quoted) {
      if (c === '"') {
        if (input[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      fieldStarted = true;
    } else if (c === ',') {
      fields.push(field);
      field = '';
      fieldStarted = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && input[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (quoted) throw new CsvFormatError(`a quoted field opened on line ${rowLine} is never closed`);
  if (field !== '' || fields.length > 0 || fieldStarted) endRow();
  return rows;
}

export class CsvFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvFormatError';
  }
}

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @; also a leading tab or carriage return),
 * behind any number of quotes: exported with one more quote, so that import can drop exactly one.
 */
const QUOTED_FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * One exported CSV cell made inert for spreadsheets: a value that would start a formula
 * (`=HYPERLINK(…)`, `+1`, `@SUM`) is prefixed with a single quote, which spreadsheets show as text.
 */
export function inertCsvField(value: string): string {
  return csvField(QUOTED_FORMULA_START.test(value) ? `'${value}` : value);
}

/** The inverse on import: a quote put before a formula character by an export (or a spreadsheet) is dropped. */
export function restoreInertCell(value: string): string {
  return value.startsWith("'") && QUOTED_FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

/** One CSV field: quoted when it holds a comma, a quote, a line break or leading/trailing spaces. */
export function csvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

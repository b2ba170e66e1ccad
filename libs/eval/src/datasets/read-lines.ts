import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export interface NumberedLine {
  /** Line content without its line break (and without a leading byte order mark on line 1). */
  text: string;
  /** 1-based line number in the file. */
  lineNumber: number;
}

/** Streams a UTF-8 text file line by line (LF or CRLF), without loading it whole. */
export async function* readLines(file: string): AsyncGenerator<NumberedLine> {
  const input = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber++;
      yield { text: lineNumber === 1 ? line.replace(/^\uFEFF/, '') : line, lineNumber };
    }
  } finally {
    lines.close();
    input.destroy();
  }
}

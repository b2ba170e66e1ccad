/**
 * A BEIR dataset folder that cannot be loaded: a missing file or a malformed line.
 * The message names the file and, for content errors, the 1-based line number.
 */
export class BeirFormatError extends Error {
  override readonly name = 'BeirFormatError';

  constructor(
    readonly detail: string,
    readonly file: string,
    readonly line?: number,
  ) {
    super(line === undefined ? `${file}: ${detail}` : `${file} line ${line}: ${detail}`);
  }
}

/**
 * A line of plain text that Markdown would read as structure (a heading, a fence, a setext underline,
 * a quote) gets a leading backslash, so the heading-aware chunker does not cut at it.
 */
export function protectLine(line: string): string {
  return /^(?:#{1,6}(?:\s|$)|`{3,}|~{3,}|[=-]+\s*$|>)/.test(line) ? `\\${line}` : line;
}

import { DEFAULT_CHUNKING, chunkDocument, parseMarkdownHeadings } from '@lumina/rag';
import type { ParsedText } from '@lumina/server-core';

/** Letters and digits only, lowercased: "Decimal Decimal(value)" and "DecimalDecimal(value)" compare equal. */
export function normalise(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** How many of the expected headings come out as headings (each output heading matched at most once). */
export function headingsRecovered(expected: string[], parsed: ParsedText): number {
  const found = new Map<string, number>();
  if (parsed.format === 'markdown') {
    for (const heading of parseMarkdownHeadings(parsed.text)) {
      const key = normalise(heading.title);
      found.set(key, (found.get(key) ?? 0) + 1);
    }
  }
  let recovered = 0;
  for (const heading of expected) {
    const key = normalise(heading);
    const left = found.get(key) ?? 0;
    if (left > 0) {
      recovered++;
      found.set(key, left - 1);
    }
  }
  return recovered;
}

/** How many boilerplate snippets are absent from the parsed text. */
export function boilerplateRemoved(snippets: string[], parsed: ParsedText): number {
  const text = normalise(parsed.text);
  return snippets.filter((snippet) => !text.includes(normalise(snippet))).length;
}

export interface BlockCuts {
  /** Tables and fenced code blocks that fit in one chunk. */
  fitting: number;
  /** Of those, how many no single chunk holds whole. */
  cut: number;
  /** Blocks longer than a chunk (they cannot be kept whole). */
  longer: number;
}

/** Tables and fenced code blocks of the parsed Markdown, and whether the default chunking keeps each whole. */
export function blockCuts(parsed: ParsedText, title: string): BlockCuts {
  const result: BlockCuts = { fitting: 0, cut: 0, longer: 0 };
  if (parsed.format !== 'markdown') return result;
  const chunks = chunkDocument({ documentId: 'd', title, ...parsed }, DEFAULT_CHUNKING);
  for (const block of markdownBlockSpans(parsed.text)) {
    if (block.end - block.start > DEFAULT_CHUNKING.maxChars) {
      result.longer++;
      continue;
    }
    result.fitting++;
    if (!chunks.some((chunk) => chunk.start <= block.start && chunk.end >= block.end)) result.cut++;
  }
  return result;
}

function markdownBlockSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  const lines = text.split('\n');
  let offset = 0;
  let open: { start: number; fence: string } | null = null;
  let table: { start: number; end: number } | null = null;
  for (const line of lines) {
    const end = offset + line.length;
    if (open) {
      if (line.trim().startsWith(open.fence) && /^\s*[`~]+\s*$/.test(line)) {
        spans.push({ start: open.start, end });
        open = null;
      }
    } else {
      const fence = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
      const row = /^\s*\|.*\|\s*$/.test(line);
      if (table && !row) {
        spans.push(table);
        table = null;
      }
      if (fence) open = { start: offset, fence: fence[1] };
      else if (row) table = table ? { start: table.start, end } : { start: offset, end };
    }
    offset = end + 1;
  }
  if (table) spans.push(table);
  return spans;
}

import { splitSentences } from '../chunking/sentence-splitter';
import { l2Normalize } from '../dense/l2-normalize';
import { queryTexts } from '../embedding/query-texts';
import { STOP_WORDS } from '../expansion/tokenize';
import type { EmbeddingProvider } from '../ports/embedding-provider.port';
import { withoutMarkerLookalikes } from './citation-markers';

/** Version of the extractive answerer's rules (recorded in traces like a prompt version). */
export const EXTRACTIVE_ANSWERER_VERSION = 'extractive-v8';

export interface ExtractiveOptions {
  /** Most sentences quoted. */
  maxSentences: number;
  /** Sentences scoring under `relativeFloor` × the best one are left out (a weak second does not pad a strong first). */
  relativeFloor: number;
  /** Sentences shorter than this many words carry no answer ("See below."). */
  minWords: number;
  /** Longer sentences are cut (with an ellipsis) when quoted. */
  maxSentenceChars: number;
  /** A code block or list a quoted sentence introduces ("…, use:") is kept up to this many characters. */
  maxBlockChars: number;
  /** Weight of the question's words found only in the passage's title and headings, against the sentence's own. */
  contextWeight: number;
  /** Each rank down the retrieval list multiplies a sentence's score by (1 − rankDecay). */
  rankDecay: number;
  /** Lexically best sentences re-scored with the embedder (0: lexical only). */
  denseCandidates: number;
  /** Weight of the embedder's cosine similarity added to the lexical score. */
  denseWeight: number;
  /**
   * For a question a code example answers ("How do I …", "what is the syntax …"): a sentence that
   * introduces a code block scores this share more, so the example is quoted with it.
   */
  codeBonus: number;
}

/**
 * The question's words decide (idf-weighted, as BM25 weighs them); the embedder only re-orders the few
 * lexically best sentences, so a weak local encoder cannot pick an unrelated sentence.
 */
export const DEFAULT_EXTRACTIVE_OPTIONS: Readonly<ExtractiveOptions> = Object.freeze({
  maxSentences: 3,
  relativeFloor: 0.6,
  minWords: 3,
  maxSentenceChars: 400,
  maxBlockChars: 800,
  contextWeight: 0.35,
  rankDecay: 0.04,
  denseCandidates: 0,
  denseWeight: 0.2,
  codeBonus: 0.25,
});

/** English questions a code example answers: "how do I …", "how to …", "what is the syntax …", "example". */
const ASKS_FOR_CODE =
  /^\s*(?:how\s+(?:do|can|could|should|would|to)\b|what(?:'s|\s+is|\s+are)\s+the\s+(?:syntax|command|code)\b|show\s+me\b)|\b(?:syntax|code\s+example|example|snippet)\b/i;

/** True for a question a code example answers ("How do I connect to Sentinel?", "what is the syntax of …"). */
export function asksForCode(question: string): boolean {
  return ASKS_FOR_CODE.test(question);
}

/** A query word as the index analysed it (a stem), with its weight. */
export interface WeightedTerm {
  term: string;
  weight: number;
}

export interface ExtractivePassage {
  /** The passage's citation marker (1-based position in the retrieval list). */
  marker: number;
  text: string;
  /** Where the passage sits, e.g. "Database runbook › Failover". */
  context?: string;
}

export interface CandidateSentence {
  marker: number;
  /** Position of the passage in the list (0 = best ranked). */
  rank: number;
  text: string;
  context: string;
  /** Offsets of the sentence inside its passage's text. */
  start: number;
  end: number;
  /** The code block or list this sentence introduces, verbatim; null when it introduces none. */
  block: string | null;
  /**
   * A table row with a header: the header line and the row line, verbatim, quoted as a small table.
   * Absent for prose, lists and tables without a header rule.
   */
  table?: { header: string; row: string };
  /** A table's header row: read for the question's words, never quoted on its own. */
  tableHeader?: boolean;
}

export interface QuotedSentence extends CandidateSentence {
  score: number;
}

export interface ExtractiveAnswer {
  /** Markdown: the quoted sentences with their markers, or '' when nothing carries the question's words. */
  text: string;
  sentences: QuotedSentence[];
  /** True when no sentence holds any of the question's words. */
  notFound: boolean;
  bestScore: number;
}

type Block = { kind: 'prose' | 'code' | 'list' | 'table' | 'heading' | 'noise'; start: number; end: number };

/** Inline and reference-style links and images: `[text](url)`, `![alt](src)`, `[text][ref]`, `![alt][ref]`. */
const LINK = /!?\[[^\]\n]*\](?:\([^)\s]*\)|\[[^\]\n]*\])/g;
/** A Markdown link reference definition: `[Referer]: https://…`. */
const LINK_DEFINITION = /^ {0,3}\[[^\]\n]+\]:\s*\S/;
/** A block that opens with an HTML tag (a sponsor block, a centred logo): markup, not prose. */
const HTML_BLOCK = /^\s*<(?:[a-z][a-z0-9-]*)(?:\s[^>]*)?\/?>/i;
const HTML_TAG = /<\/?[a-z][^>\n]{0,200}>/gi;
/**
 * A list marker opening a line: `- `, `* `, `+ `, `1. `, `1) ` (a nested item's too), or alone on its
 * line (an item a passage's end cut before its text).
 */
const LIST_MARKER = /^\s*(?:[-*+]|\d{1,3}[.)])(?:\s+|$)/;
/** A table's header rule: `| --- | :---: |`. */
const TABLE_RULE = /^\s*\|?[\s:|-]+\|?\s*$/;

/** A block quote's marks at a line's start: `> `, nested `> > `, up to three spaces before each. */
const QUOTE_MARKS = /^(?: {0,3}>[ \t]?)+/;
/** A GitHub alert's label opening a block quote: `> [!NOTE]`. */
const ALERT_LABEL = /^\s*\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]/i;

/**
 * The passage with its block quotes' `>` marks (and a GitHub alert's `[!NOTE]` label) turned into spaces,
 * so a quoted sentence reads as prose and every offset still points into the passage. A quote's `>` line
 * becomes blank and separates paragraphs, a heading inside a quote is a heading again. Lines inside a
 * fenced code block opened outside a quote (`> npm start` at a prompt) are left as written.
 */
export function unquoteBlockQuotes(text: string): string {
  const lines = text.split('\n');
  let fence: { mark: string; quoted: boolean } | null = null;
  const out = lines.map((line) => {
    const marks = fence && !fence.quoted ? null : QUOTE_MARKS.exec(line);
    let plain = marks ? ' '.repeat(marks[0].length) + line.slice(marks[0].length) : line;
    if (marks) {
      const alert = ALERT_LABEL.exec(plain.slice(marks[0].length));
      if (alert)
        plain =
          plain.slice(0, marks[0].length) +
          ' '.repeat(alert[0].length) +
          plain.slice(marks[0].length + alert[0].length);
    }
    const opener = /^\s*(```|~~~)/.exec(plain)?.[1];
    if (opener) {
      if (!fence) fence = { mark: opener, quoted: marks !== null };
      else if (opener === fence.mark) fence = null;
    }
    return plain;
  });
  return out.join('\n');
}

/** Cut a passage into Markdown blocks: paragraphs, fenced code, lists, tables, headings; navigation is noise. */
export function markdownBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const lines: { start: number; end: number; text: string }[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    lines.push({ start: offset, end: offset + line.length, text: line });
    offset += line.length + 1;
  }
  let i = 0;
  const push = (kind: Block['kind'], from: number, to: number) =>
    blocks.push({ kind, start: lines[from].start, end: lines[to].end });
  while (i < lines.length) {
    const line = lines[i].text;
    const trimmed = line.trim();
    if (!trimmed) {
      i++;
      continue;
    }
    if (/^(```|~~~)/.test(trimmed)) {
      const fence = trimmed.slice(0, 3);
      let j = i + 1;
      while (j < lines.length && !lines[j].text.trim().startsWith(fence)) j++;
      push('code', i, Math.min(j, lines.length - 1));
      i = j + 1;
      continue;
    }
    if (/^#{1,6}\s/.test(trimmed)) {
      push('heading', i, i);
      i++;
      continue;
    }
    const kindOf = (t: string): Block['kind'] =>
      /^\|/.test(t) ? 'table' : LIST_MARKER.test(t) ? 'list' : 'prose';
    const kind = kindOf(trimmed);
    let j = i;
    while (
      j + 1 < lines.length &&
      lines[j + 1].text.trim() &&
      !/^(```|~~~|#{1,6}\s)/.test(lines[j + 1].text.trim()) &&
      (kind === 'prose'
        ? kindOf(lines[j + 1].text.trim()) === 'prose'
        : kindOf(lines[j + 1].text.trim()) === kind ||
          /^\s{2,}\S/.test(lines[j + 1].text) ||
          // A list item's lazy continuation: its wrapped text on an unindented line.
          (kind === 'list' && kindOf(lines[j + 1].text.trim()) === 'prose'))
    ) {
      j++;
    }
    const body = text.slice(lines[i].start, lines[j].end);
    // A list is navigation when each of its lines is (a table of contents); one whose items carry prose
    // wrapped after their links (a package list) is not, its link-only lines are skipped one by one.
    const navigation =
      kind === 'list'
        ? lines.slice(i, j + 1).every((line) => !line.text.trim() || isNavigation(line.text.trim()))
        : isNavigation(body);
    const noise = navigation || HTML_BLOCK.test(body) || LINK_DEFINITION.test(lines[i].text);
    push(noise ? 'noise' : kind, i, j);
    i = j + 1;
  }
  return blocks;
}

/**
 * Tables of contents, link lists and badges: text that is mostly links or images, or an HTML block.
 * What is left once links, images and tags are removed is under a third of the text (or a few words).
 */
export function isNavigation(text: string): boolean {
  const stripped = text.replace(LINK, ' ').replace(HTML_TAG, ' ');
  const words = (s: string) => (s.match(/[\p{L}\p{N}]+/gu) ?? []).length;
  const linkCount = (text.match(LINK) ?? []).length;
  if (linkCount === 0) return /^\s*<[a-z]/i.test(text) && words(stripped) < 4;
  const remaining = stripped.replace(/[\s\-*+|·•,;:()[\]]+/g, ' ').trim();
  return remaining.length < text.length / 3 || words(remaining) <= linkCount;
}

/**
 * The passages' sentences worth quoting, each with the code block or list it introduces: the block after
 * a paragraph whose last sentence ends with a colon, or (with `codeAfterLastSentence`, for a question a
 * code example answers) the code block right after a paragraph's last sentence, colon or not.
 */
export function candidateSentences(
  passages: readonly ExtractivePassage[],
  options: Pick<ExtractiveOptions, 'minWords' | 'maxBlockChars'> = DEFAULT_EXTRACTIVE_OPTIONS,
  codeAfterLastSentence = false,
): CandidateSentence[] {
  const seen = new Set<string>();
  const candidates: CandidateSentence[] = [];
  passages.forEach((passage, rank) => {
    // Block quotes read without their `>` marks; offsets still point into the passage's own text.
    const plain = unquoteBlockQuotes(passage.text);
    const blocks = markdownBlocks(plain);
    blocks.forEach((block, b) => {
      if (block.kind !== 'prose' && block.kind !== 'list' && block.kind !== 'table') return;
      const body = plain.slice(block.start, block.end);
      // A line break inside a paragraph or a list item does not end a sentence or an item; a new list
      // marker does. A list item is quoted whole, as one unit, however many lines it was wrapped onto.
      const units =
        block.kind === 'prose'
          ? splitSentences(body).map((span) => ({ start: span.start, end: span.end }))
          : block.kind === 'list'
            ? listItemSpans(body)
            : lineSpans(body);
      // A GFM table: a header line, then the rule ("| --- | --- |"); its rows are quoted under the header.
      const header =
        block.kind === 'table' &&
        units.length >= 2 &&
        TABLE_RULE.test(body.slice(units[1].start, units[1].end))
          ? body.slice(units[0].start, units[0].end).trim()
          : null;
      units.forEach((unit, u) => {
        let start = block.start + unit.start;
        let raw = plain.slice(start, block.start + unit.end);
        const bullet = /^\s*(?:[-*+]\s+|\d{1,3}[.)]\s+)/.exec(raw);
        if (bullet) {
          start += bullet[0].length;
          raw = raw.slice(bullet[0].length);
        }
        const indent = raw.length - raw.trimStart().length;
        start += indent;
        raw = raw.slice(indent);
        const row = raw.trim();
        if (block.kind === 'table') {
          if (TABLE_RULE.test(raw)) return; // the header rule
          raw = raw
            .replace(/^\s*\|/, '')
            .replace(/\|\s*$/, '')
            .replace(/\s*\|\s*/g, ' — ');
        }
        const text = raw.replace(/\s+/g, ' ').trim();
        // A wrapped list item is link navigation only when each of its lines is: a package list's
        // "[`koa-pino-logger`](…): use Pino to" wraps onto "log requests within [Koa](…)." and is prose.
        const navigation =
          block.kind === 'list'
            ? raw
                .split('\n')
                .filter((line) => line.trim())
                .every((line) => isNavigation(line.trim()))
            : isNavigation(text);
        if (navigation || LINK_DEFINITION.test(raw)) return;
        if (wordCount(text) < options.minWords) return;
        // Overlapping chunks repeat sentences: quote each once, from the best-ranked passage.
        const key = text.toLowerCase();
        if (seen.has(key)) return;
        seen.add(key);
        const last = u === units.length - 1 && block.kind === 'prose';
        const next = blocks[b + 1] as Block | undefined;
        const introduces =
          u === units.length - 1 && /[:：]\s*$/.test(text)
            ? next
            : last && codeAfterLastSentence && next?.kind === 'code'
              ? next
              : undefined;
        // A list item ending with a colon introduces the items nested under it ("…has the following fields:").
        const nested =
          block.kind === 'list' && !introduces && /[:：]\s*$/.test(text) ? nestedItems(body, units, u) : null;
        const block2 =
          introduces && (introduces.kind === 'code' || introduces.kind === 'list')
            ? cutBlock(dedent(plain.slice(introduces.start, introduces.end)), options.maxBlockChars)
            : nested
              ? cutBlock(dedent(body.slice(nested.start, nested.end)), options.maxBlockChars)
              : null;
        candidates.push({
          marker: passage.marker,
          rank,
          text,
          context: passage.context ?? '',
          start,
          end: block.start + unit.end,
          block: block2,
          ...(header !== null && u === 0 ? { tableHeader: true } : {}),
          ...(header !== null && u > 0 ? { table: { header, row } } : {}),
        });
      });
    });
  });
  return candidates;
}

/**
 * The items of a list block: each from its marker's line to the line before the next marker, so an
 * item wrapped onto further lines (indented or not) is one item.
 */
function listItemSpans(body: string): { start: number; end: number }[] {
  const items: { start: number; end: number }[] = [];
  for (const line of lineSpans(body)) {
    const last = items[items.length - 1];
    if (last && !LIST_MARKER.test(body.slice(line.start, line.end))) last.end = line.end;
    else items.push({ ...line });
  }
  return items;
}

/** The items nested under item `u` (indented deeper, right after it), as one span of `body`; null without. */
function nestedItems(
  body: string,
  items: readonly { start: number; end: number }[],
  u: number,
): { start: number; end: number } | null {
  const indentOf = (item: { start: number }) => /^[ \t]*/.exec(body.slice(item.start))?.[0].length ?? 0;
  const own = indentOf(items[u]);
  let last = u;
  while (last + 1 < items.length && indentOf(items[last + 1]) > own) last++;
  return last > u ? { start: items[u + 1].start, end: items[last].end } : null;
}

function lineSpans(body: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  let offset = 0;
  for (const line of body.split('\n')) {
    if (line.trim()) spans.push({ start: offset, end: offset + line.length });
    offset += line.length + 1;
  }
  return spans;
}

/** A block without the indentation all its lines share (a code block inside a block quote). */
function dedent(block: string): string {
  const lines = block.split('\n');
  const indents = lines.filter((line) => line.trim()).map((line) => line.length - line.trimStart().length);
  const common = Math.min(...indents);
  return common > 0 && Number.isFinite(common) ? lines.map((line) => line.slice(common)).join('\n') : block;
}

/** A block kept whole when short; a long one is cut at a line boundary, a fence closed again. */
function cutBlock(block: string, maxChars: number): string {
  if (block.length <= maxChars) return block;
  const lines = block.split('\n');
  const kept: string[] = [];
  let length = 0;
  for (const line of lines) {
    if (length + line.length + 1 > maxChars && kept.length > 0) break;
    kept.push(line);
    length += line.length + 1;
  }
  const fence = /^\s*(```|~~~)/.exec(lines[0])?.[1];
  if (fence) kept.push('…', fence);
  else kept.push('…');
  return kept.join('\n');
}

/** Scripts written without spaces: their words are found inside a run of characters, not as tokens. */
const NO_SPACE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const NO_SPACE_CHARS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/gu;

/** Words in a text: space-separated words, and for scripts without spaces one per two characters. */
export function wordCount(text: string): number {
  const noSpace = (text.match(NO_SPACE_CHARS) ?? []).length;
  const spaced = text
    .replace(NO_SPACE_CHARS, ' ')
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return spaced + Math.ceil(noSpace / 2);
}

/** Lower-cased word tokens (letters and digits), stop words removed. */
export function wordTokens(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_-]*/gu) ?? []).filter((t) => !STOP_WORDS.has(t));
}

/**
 * True when a text token is a form of the query stem: Snowball stems are prefixes of most forms
 * ("configur" ← "configuration"); a final "i" stands for "y" ("retri" ← "retry").
 */
export function matchesStem(token: string, stem: string): boolean {
  if (token.startsWith(stem)) return true;
  if (
    stem.endsWith('i') &&
    token.startsWith(stem.slice(0, -1)) &&
    token.length === stem.length &&
    token.endsWith('y')
  )
    return true;
  return stem.length >= 5 && token.length >= 4 && stem.startsWith(token);
}

/** The query's words as stems with equal weights, when the index gave none (crude: the first five letters). */
export function fallbackTerms(question: string): WeightedTerm[] {
  return [
    ...new Set(
      wordTokens(question)
        .filter((t) => t.length >= 2)
        .map((t) => t.slice(0, 5)),
    ),
  ].map((term) => ({
    term,
    weight: 1,
  }));
}

/**
 * A sentence's lexical score: the share of the question's weight its words carry (a word found only in
 * the passage's title and headings counts `contextWeight`), lowered a little per rank of its passage.
 */
export function lexicalScore(
  sentence: Pick<CandidateSentence, 'text' | 'context' | 'rank'>,
  terms: readonly WeightedTerm[],
  options: Pick<ExtractiveOptions, 'contextWeight' | 'rankDecay'> = DEFAULT_EXTRACTIVE_OPTIONS,
): number {
  const total = terms.reduce((sum, t) => sum + t.weight, 0);
  if (total === 0) return 0;
  const own = wordTokens(sentence.text);
  const context = wordTokens(sentence.context);
  const holds = (tokens: string[], text: string, term: string) =>
    NO_SPACE_SCRIPT.test(term) ? text.toLowerCase().includes(term) : tokens.some((t) => matchesStem(t, term));
  let score = 0;
  for (const { term, weight } of terms) {
    if (holds(own, sentence.text, term)) score += weight;
    else if (holds(context, sentence.context, term)) score += options.contextWeight * weight;
  }
  return (score / total) * (1 - options.rankDecay) ** sentence.rank;
}

/** Cosine similarity of two vectors (normalised here, so any embedder works). */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new RangeError(`vectors of ${a.length} and ${b.length} dimensions`);
  const x = l2Normalize([...a]);
  const y = l2Normalize([...b]);
  let dot = 0;
  for (let i = 0; i < x.length; i++) dot += x[i] * y[i];
  return dot;
}

/**
 * The sentences to quote: the best-scoring, those within `relativeFloor` of it, at most `maxSentences`,
 * then put back in reading order (passage, position).
 */
export function selectSentences(
  scored: readonly QuotedSentence[],
  options: Pick<ExtractiveOptions, 'relativeFloor' | 'maxSentences'> = DEFAULT_EXTRACTIVE_OPTIONS,
): QuotedSentence[] {
  const quotable = scored.filter((s) => !s.tableHeader);
  const best = Math.max(0, ...quotable.map((s) => s.score));
  if (best <= 0) return [];
  return quotable
    .filter((s) => s.score >= best * options.relativeFloor)
    .sort((a, b) => b.score - a.score || a.rank - b.rank || a.start - b.start)
    .slice(0, options.maxSentences)
    .sort((a, b) => a.rank - b.rank || a.start - b.start);
}

/**
 * Markdown a person reads: the sentences of one passage as one paragraph ending with its marker, a
 * block a sentence introduces kept under it.
 */
export function formatExtractiveAnswer(
  sentences: readonly QuotedSentence[],
  maxSentenceChars = DEFAULT_EXTRACTIVE_OPTIONS.maxSentenceChars,
): string {
  const paragraphs: string[] = [];
  let current: string[] = [];
  let marker: number | null = null;
  const flush = () => {
    if (current.length && marker !== null) paragraphs.push(`${current.join(' ')} [${marker}]`);
    current = [];
  };
  for (const s of sentences) {
    if (s.table) {
      flush();
      paragraphs.push(
        quotedTableRow(
          withoutMarkerLookalikes(s.table.header),
          withoutMarkerLookalikes(s.table.row),
          s.marker,
        ),
      );
      marker = null;
      continue;
    }
    if (s.marker !== marker) flush();
    marker = s.marker;
    const text =
      s.text.length > maxSentenceChars ? `${s.text.slice(0, maxSentenceChars).trimEnd()}…` : s.text;
    current.push(withoutMarkerLookalikes(text));
    if (s.block) {
      flush();
      // Fenced code is never read for markers; a list a sentence introduces is.
      paragraphs.push(isFencedCode(s.block) ? s.block : withoutMarkerLookalikes(s.block));
    }
  }
  flush();
  return paragraphs.join('\n\n');
}

/** True when a block a sentence introduces is fenced code (``` or ~~~), not a list. */
function isFencedCode(block: string): boolean {
  return /^\s*(```|~~~)/.test(block);
}

/** The cells of a table line: `| a | b |` → ["a", "b"] (an escaped `\\|` stays inside its cell). */
function tableCells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

/**
 * A table row quoted with its header, as a GFM table of two lines (and the rule); the marker closes the
 * row's last cell, so the row it cites is the text before it.
 */
export function quotedTableRow(header: string, row: string, marker: number): string {
  const head = tableCells(header);
  const cells = tableCells(row);
  const width = Math.max(head.length, cells.length);
  const pad = (list: string[]) => [...list, ...Array<string>(width - list.length).fill('')];
  const line = (list: string[]) => `| ${list.join(' | ')} |`;
  const body = pad(cells);
  body[width - 1] = `${body[width - 1]} [${marker}]`.trim();
  return [line(pad(head)), line(Array<string>(width).fill('---')), line(body)].join('\n');
}

/**
 * True when a code block holds at least one of the question's words (a stem, as in prose): identifiers
 * are read in parts, so `sentinels`, `customLevels` and `log_level` hold "sentinel", "level" and "log".
 * Only such a block earns a how-question's bonus; an unrelated example must not win it for its sentence.
 */
export function codeHoldsTerm(code: string, terms: readonly WeightedTerm[]): boolean {
  const spaced = code.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2').replace(/[_-]+/g, ' ');
  const tokens = [...wordTokens(spaced), ...wordTokens(code)];
  return terms.some(
    ({ term, weight }) =>
      weight > 0 &&
      (NO_SPACE_SCRIPT.test(term)
        ? code.toLowerCase().includes(term)
        : tokens.some((token) => matchesStem(token, term))),
  );
}

/**
 * The offline answer: the passages' sentences that carry most of the question's weight (its words as the
 * index weighs them, in the sentence or its headings), optionally re-ordered by the embedder among the
 * best few, quoted verbatim with their markers. `notFound` when no sentence holds any question word.
 */
export async function extractiveAnswer(
  question: string,
  passages: readonly ExtractivePassage[],
  embedder: EmbeddingProvider | null,
  options: Partial<ExtractiveOptions> = {},
  signal?: AbortSignal,
  terms: readonly WeightedTerm[] = fallbackTerms(question),
): Promise<ExtractiveAnswer> {
  const opts: ExtractiveOptions = { ...DEFAULT_EXTRACTIVE_OPTIONS, ...options };
  const wantsCode = asksForCode(question);
  const candidates = candidateSentences(passages, opts, wantsCode);
  const codeBonus = (c: CandidateSentence) =>
    wantsCode && c.block && isFencedCode(c.block) && codeHoldsTerm(c.block, terms) ? 1 + opts.codeBonus : 1;
  const scored: QuotedSentence[] = candidates.map((c) => ({
    ...c,
    score: lexicalScore(c, terms, opts) * codeBonus(c),
  }));
  const ranked = [...scored].sort((a, b) => b.score - a.score || a.rank - b.rank || a.start - b.start);
  const top = ranked.slice(0, opts.denseCandidates).filter((s) => s.score > 0);
  if (embedder && top.length > 1 && opts.denseWeight > 0) {
    const [q, ...vectors] = await embedder.embed(
      [
        ...queryTexts(embedder, [question]),
        ...top.map((s) => (s.context ? `${s.context}: ${s.text}` : s.text)),
      ],
      signal,
    );
    top.forEach((s, i) => {
      s.score += opts.denseWeight * cosineSimilarity(q, vectors[i]);
    });
  }
  const sentences = selectSentences(scored, opts);
  return {
    text: formatExtractiveAnswer(sentences, opts.maxSentenceChars),
    sentences,
    notFound: sentences.length === 0,
    bestScore: Math.max(0, ...scored.map((s) => s.score)),
  };
}

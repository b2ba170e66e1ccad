import { formatHeadingPath } from './chunk';
import type { Chunk, ChunkerOptions } from './chunk';
import { chunkWholeDocument } from './document-chunker';
import { chunkByHeadings } from './heading-chunker';
import { parseMarkdownHeadings } from './markdown-headings';
import { chunkBySentences } from './sentence-chunker';
import { splitSentences } from './sentence-splitter';

/** Small deterministic PRNG (mulberry32) so that generated cases are reproducible. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'the',
  'replica',
  'lag',
  'is',
  'below',
  'threshold',
  'Postgres',
  'failover',
  'e.g.',
  'Dr.',
  'U.S.',
  'et al.',
  'J.',
  '3.14',
  '42',
  'etc.',
  'café',
  'Über',
  '😀',
  'x',
  'config_value',
  '*bold*',
  '`code`',
  '(see',
  'notes)',
];
const ENDINGS = ['.', '.', '.', '!', '?', '?!', '."', '.)', '...', ''];
const GAPS = [' ', ' ', ' ', '  ', '\n', '\t', '\r\n', '\n\n', '\n \n', ' \n\n\n '];
const BLOCKS = [
  '# Title',
  '## Sub *section*',
  '### Deep',
  '#### Deeper',
  '```',
  '~~~',
  '---',
  'Setext\n===',
  '- item',
  '1. step',
];

function generateText(random: () => number): string {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
  const parts: string[] = [];
  const sentenceCount = Math.floor(random() * 40);
  for (let sentence = 0; sentence < sentenceCount; sentence++) {
    if (random() < 0.15) parts.push(`\n${pick(BLOCKS)}\n`);
    const words: string[] = [];
    const wordCount = 1 + Math.floor(random() * 18);
    for (let word = 0; word < wordCount; word++) {
      if (random() < 0.03) {
        words.push('w'.repeat(20 + Math.floor(random() * 60)));
      } else {
        const value = pick(WORDS);
        words.push(word === 0 || random() < 0.2 ? value.charAt(0).toUpperCase() + value.slice(1) : value);
      }
    }
    parts.push(words.join(random() < 0.1 ? '\n' : ' ') + pick(ENDINGS) + pick(GAPS));
  }
  return (random() < 0.5 ? pick(GAPS) : '') + parts.join('');
}

const FIXED_TEXTS = [
  '',
  '   \n\n ',
  'One.',
  'Dr. J. R. R. Tolkien wrote approx. 3.5 books, e.g. The Hobbit. Mrs. Smith disagreed! Why? "Because."',
  [
    'Lumina answers questions from internal runbooks.',
    '',
    '# Runbooks',
    '',
    '## Database',
    '',
    '### Failover',
    '',
    'When the primary fails, promote the replica with the highest LSN. Check replication lag first, i.e. make',
    'sure it is below 10 s. See Fig. 2 for the state machine.',
    '',
    '```sql',
    '# not a heading',
    'SELECT pg_promote();',
    '```',
    '',
    '## Cache',
    '',
    'Flush the cache, etc. Then warm it up again. A very long sentence follows that goes on and on without any',
    'terminal punctuation for quite a while so that it certainly exceeds the smaller chunk sizes used here and',
    'has to be split on word boundaries somewhere in the middle',
    '',
    'Appendix',
    '========',
    '',
    'Supercalifragilisticexpialidocious-and-then-some-more-characters-without-spaces.',
  ].join('\r\n'),
];

const RANDOM_TEXTS = Array.from({ length: 120 }, (_, seed) => generateText(createRandom(seed + 1)));
const ALL_TEXTS = [...FIXED_TEXTS, ...RANDOM_TEXTS];

const OPTIONS: ChunkerOptions[] = [
  { maxChars: 1, overlapChars: 0 },
  { maxChars: 9, overlapChars: 4 },
  { maxChars: 40, overlapChars: 0 },
  { maxChars: 60, overlapChars: 30 },
  { maxChars: 200, overlapChars: 199 },
  { maxChars: 5000, overlapChars: 100 },
];

function isWhitespace(char: string): boolean {
  return /\s/.test(char);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Invariants shared by all chunkers. Returns a description of the first violation, or null. */
function findViolation(source: string, chunks: Chunk[], options: ChunkerOptions): string | null {
  for (const [index, chunk] of chunks.entries()) {
    if (source.slice(chunk.start, chunk.end) !== chunk.text)
      return `chunk ${index}: span does not reproduce text`;
    if (chunk.text.length === 0) return `chunk ${index}: empty`;
    if (isWhitespace(chunk.text[0]) || isWhitespace(chunk.text[chunk.text.length - 1])) {
      return `chunk ${index}: not trimmed`;
    }
    if (chunk.end - chunk.start > options.maxChars) return `chunk ${index}: longer than maxChars`;
    if (chunk.ordinal !== index) return `chunk ${index}: ordinal ${chunk.ordinal}`;
    // A surrogate pair only has to be torn when not even one code point fits.
    const tearsPair =
      isLowSurrogate(chunk.text.charCodeAt(0)) ||
      isHighSurrogate(chunk.text.charCodeAt(chunk.text.length - 1));
    if (tearsPair && options.maxChars >= 2) {
      return `chunk ${index}: tears a surrogate pair`;
    }
    const expectedIndexText =
      chunk.headingPath.length === 0
        ? chunk.text
        : `${formatHeadingPath(chunk.headingPath)}\n\n${chunk.text}`;
    if (chunk.indexText !== expectedIndexText) return `chunk ${index}: wrong indexText`;
    if ((chunk.anchor === null) !== (chunk.headingPath.length === 0))
      return `chunk ${index}: anchor/path mismatch`;
    const previous = chunks[index - 1];
    if (previous) {
      if (chunk.start <= previous.start || chunk.end <= previous.end)
        return `chunk ${index}: no forward progress`;
      if (previous.end - chunk.start > options.overlapChars) return `chunk ${index}: overlap exceeds budget`;
    }
  }
  return null;
}

/** Offsets of non-whitespace characters not covered by any chunk, skipping those inside `excluded` ranges. */
function uncovered(
  source: string,
  chunks: Chunk[],
  excluded: { start: number; end: number }[] = [],
): number[] {
  const covered = new Uint8Array(source.length);
  for (const range of [...chunks, ...excluded]) covered.fill(1, range.start, range.end);
  const missing: number[] = [];
  for (let index = 0; index < source.length; index++) {
    if (!covered[index] && !isWhitespace(source[index])) missing.push(index);
  }
  return missing;
}

/** When every sentence fits: chunks start and end on sentence boundaries and every sentence is in some chunk. */
function findSplitSentence(text: string, chunks: Chunk[]): string | null {
  const sentences = splitSentences(text);
  const starts = new Set(sentences.map((sentence) => sentence.start));
  const ends = new Set(sentences.map((sentence) => sentence.end));
  const cut = chunks.find((chunk) => !starts.has(chunk.start) || !ends.has(chunk.end));
  if (cut) return `chunk ${cut.ordinal} does not start and end on sentence boundaries`;
  const lost = sentences.find(
    (sentence) => !chunks.some((chunk) => chunk.start <= sentence.start && sentence.end <= chunk.end),
  );
  return lost ? `sentence at ${lost.start} is not contained in any chunk` : null;
}

/** Heading lines stay out of chunks and each anchor names one section: one path, one contiguous run. */
function findSectionViolation(text: string, chunks: Chunk[]): string | null {
  const headingLines = parseMarkdownHeadings(text);
  for (const chunk of chunks) {
    if (headingLines.some((heading) => chunk.start < heading.end && heading.start < chunk.end)) {
      return `chunk ${chunk.ordinal} contains a heading line`;
    }
  }
  if (uncovered(text, chunks, headingLines).length > 0) return 'body text not covered by any chunk';
  const pathByAnchor = new Map<string, string>();
  const finished = new Set<string>();
  for (const [index, chunk] of chunks.entries()) {
    const previous = chunks[index - 1];
    if (previous && previous.anchor !== chunk.anchor) {
      if (previous.anchor !== null) finished.add(previous.anchor);
      if (chunk.start < previous.end) return `chunk ${index} overlaps the previous section`;
    }
    if (chunk.anchor === null) continue;
    if (finished.has(chunk.anchor)) return `anchor ${chunk.anchor} used by two sections`;
    const path = JSON.stringify(chunk.headingPath);
    if ((pathByAnchor.get(chunk.anchor) ?? path) !== path) return `anchor ${chunk.anchor} has two paths`;
    pathByAnchor.set(chunk.anchor, path);
  }
  return null;
}

/** Runs `check` over every text; failures name the text (index into ALL_TEXTS) and the violation. */
function expectForAllTexts(check: (text: string) => string | null): void {
  const failures = ALL_TEXTS.map((text, index) => ({ index, violation: check(text) })).filter(
    (result) => result.violation !== null,
  );
  expect(failures).toEqual([]);
}

describe('chunking invariants over fixed and generated texts', () => {
  it('generates a varied corpus', () => {
    const joined = RANDOM_TEXTS.join('');
    expect(joined.length).toBeGreaterThan(20_000);
    for (const needle of ['```', '# Title', '===', 'e.g.', '😀', '\r\n', '\n\n', 'wwwwwwwwwwwwwwwwwwww']) {
      expect(joined).toContain(needle);
    }
  });

  it('splitSentences yields ordered, disjoint, trimmed spans covering every non-whitespace character', () => {
    for (const text of ALL_TEXTS) {
      const spans = splitSentences(text);
      spans.forEach((span, index) => {
        expect(span.start).toBeLessThan(span.end);
        expect(isWhitespace(text[span.start])).toBe(false);
        expect(isWhitespace(text[span.end - 1])).toBe(false);
        if (index > 0) expect(span.start).toBeGreaterThan(spans[index - 1].end);
      });
      const asChunks = spans.map((span) => ({ ...span }) as Chunk);
      expect(uncovered(text, asChunks)).toEqual([]);
    }
  });

  it.each(OPTIONS)('chunkBySentences keeps all invariants with %p', (options) => {
    expectForAllTexts((text) => {
      const chunks = chunkBySentences('doc', text, options);
      if (uncovered(text, chunks).length > 0) return 'text not covered by any chunk';
      if (chunks.some((chunk) => chunk.headingPath.length > 0 || chunk.anchor !== null))
        return 'heading context';
      return findViolation(text, chunks, options);
    });
  });

  it.each(OPTIONS.filter((options) => options.maxChars >= 60))(
    'chunkBySentences never splits a sentence that fits, with %p',
    (options) => {
      const eligible = ALL_TEXTS.filter((text) =>
        splitSentences(text).every((sentence) => sentence.end - sentence.start <= options.maxChars),
      );
      expect(eligible.length).toBeGreaterThan(10);
      expectForAllTexts((text) =>
        eligible.includes(text) ? findSplitSentence(text, chunkBySentences('doc', text, options)) : null,
      );
    },
  );

  it.each(OPTIONS)('chunkByHeadings keeps all invariants with %p', (options) => {
    expectForAllTexts((text) => {
      const chunks = chunkByHeadings('doc', text, options);
      return findViolation(text, chunks, options) ?? findSectionViolation(text, chunks);
    });
  });

  it('chunkWholeDocument reproduces the trimmed source', () => {
    for (const text of ALL_TEXTS) {
      const chunks = chunkWholeDocument('doc', text);
      if (text.trim() === '') {
        expect(chunks).toEqual([]);
        continue;
      }
      expect(chunks).toHaveLength(1);
      expect(chunks[0].text).toBe(text.trim());
      expect(text.slice(chunks[0].start, chunks[0].end)).toBe(chunks[0].text);
      const truncated = chunkWholeDocument('doc', text, 50);
      expect(findViolation(text, truncated, { maxChars: 50, overlapChars: 0 })).toBeNull();
      expect(truncated[0].start).toBe(chunks[0].start);
    }
  });
});

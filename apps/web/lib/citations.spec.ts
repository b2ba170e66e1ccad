import type { Citation, RetrievedPassage } from '@lumina/shared';
import {
  citedRange,
  citedRanges,
  formatPages,
  passageOffsets,
  quoteBefore,
  quotedRanges,
  resolveMarker,
  segmentAnswer,
  sentenceAround,
} from './citations';

const citation = (marker: number, chunkId: string, span = { start: 0, end: 0 }): Citation => ({
  marker,
  chunkId,
  documentId: 'd',
  title: 'Handbook',
  headingPath: [],
  anchor: null,
  span,
});

const retrieved = (marker: number, chunkId: string, text = 'x'): RetrievedPassage => ({
  ...citation(marker, chunkId),
  text,
  score: 1,
  similarity: null,
  provenance: [],
});

describe('segmentAnswer', () => {
  it('splits text and markers, including groups, but not years', () => {
    const text = 'Sixteen weeks [1][2]. Since [2024], see [3, 4].';
    const group = text.indexOf('[3, 4]');
    expect(segmentAnswer(text)).toEqual([
      { type: 'text', text: 'Sixteen weeks ' },
      { type: 'marker', marker: 1, start: 14 },
      { type: 'marker', marker: 2, start: 17 },
      { type: 'text', text: '. Since [2024], see ' },
      { type: 'marker', marker: 3, start: group },
      { type: 'marker', marker: 4, start: group },
      { type: 'text', text: '.' },
    ]);
  });

  it('leaves a half-streamed marker as text until it closes', () => {
    expect(segmentAnswer('weeks [1')).toEqual([{ type: 'text', text: 'weeks [1' }]);
  });
});

describe('resolveMarker', () => {
  const results = [retrieved(1, 'a'), retrieved(2, 'b')];

  it('uses the n-th passage while the citations are not known yet', () => {
    expect(resolveMarker(2, [], results, [], false).passage?.chunkId).toBe('b');
  });

  it("follows the server's mapping once known, and marks unmapped or dropped markers", () => {
    expect(resolveMarker(1, [citation(1, 'b')], results, [], true).passage?.chunkId).toBe('b');
    expect(resolveMarker(2, [citation(1, 'b')], results, [], true).dropped).toBe(true);
    expect(resolveMarker(9, [], results, [9], false).dropped).toBe(true);
  });
});

describe('passageOffsets', () => {
  it("takes a retrieved passage's span as its offsets, and an empty span as unknown", () => {
    const passage = retrieved(1, 'a');
    expect(passageOffsets({ ...passage, span: { start: 40, end: 66 } })).toEqual({
      spanStart: 40,
      spanEnd: 66,
    });
    expect(passageOffsets({ ...passage, span: { start: 0, end: 0 } })).toEqual({
      spanStart: null,
      spanEnd: null,
    });
  });
});

describe('citedRange', () => {
  const text = 'Every employee receives 27 days of paid vacation. Unused days carry over until March.';

  it('uses a span that names part of the passage (document characters)', () => {
    const range = citedRange(
      text,
      citation(1, 'a', { start: 1050, end: 1074 }),
      { spanStart: 1000, spanEnd: 1000 + text.length },
      '',
    );
    expect(text.slice(range!.start, range!.end)).toBe('Unused days carry over u');
  });

  it('picks the sentence the answer relies on when the span is the whole passage', () => {
    const whole = citation(1, 'a', { start: 1000, end: 1000 + text.length });
    const range = citedRange(
      text,
      whole,
      { spanStart: 1000, spanEnd: 1000 + text.length },
      'Unused vacation days carry over until March',
    );
    expect(text.slice(range!.start, range!.end)).toBe('Unused days carry over until March.');
  });

  it('falls back to the whole span, or to nothing, when no sentence shares words', () => {
    const whole = citation(1, 'a', { start: 0, end: text.length });
    expect(citedRange(text, whole, { spanStart: 0, spanEnd: text.length }, 'zebra')).toEqual({
      start: 0,
      end: text.length,
    });
    expect(citedRange(text, null, null, 'zebra')).toBeNull();
  });
});

describe('quoteBefore', () => {
  it('reads the text a marker closes: its paragraph since the previous marker', () => {
    const answer =
      'Leave is long. Vacation is 27 days. [1][2]\n\n| Key | Default |\n| --- | --- |\n| a | b [3] |';
    expect(quoteBefore(answer, answer.indexOf('[1]'))).toBe('Leave is long. Vacation is 27 days.');
    expect(quoteBefore(answer, answer.indexOf('[2]'))).toBe('Leave is long. Vacation is 27 days.');
    expect(quoteBefore(answer, answer.indexOf('[3]'))).toBe('| Key | Default |\n| --- | --- |\n| a | b');
  });
});

describe('quotedRanges', () => {
  const passage = [
    'Intro sentence stays unmarked. Sentinels listen on port 26379 by default. Another one here.',
    '',
    'To connect using `Sentinel`, use:',
    '',
    '```js',
    'new Redis({ sentinels });',
    '```',
    '',
    '| Key | Default |',
    '| --- | --- |',
    '| retries | three |',
    '| timeout | thirty seconds |',
  ].join('\n');

  it('marks only the quoted sentences, not the whole passage', () => {
    const ranges = quotedRanges(passage, 'Sentinels listen on port 26379 by default.');
    expect(ranges.map((r) => passage.slice(r.start, r.end))).toEqual([
      'Sentinels listen on port 26379 by default.',
    ]);
  });

  it('merges sentences that follow each other and finds text with inline code', () => {
    const ranges = quotedRanges(
      passage,
      'Intro sentence stays unmarked. Sentinels listen on port 26379 by default.',
    );
    expect(ranges.map((r) => passage.slice(r.start, r.end))).toEqual([
      'Intro sentence stays unmarked. Sentinels listen on port 26379 by default.',
    ]);
    const code = quotedRanges(passage, 'To connect using `Sentinel`, use:');
    expect(code.map((r) => passage.slice(r.start, r.end))).toEqual(['To connect using `Sentinel`, use:']);
  });

  it('marks a quoted table row with its header, and not the rows between', () => {
    const ranges = quotedRanges(passage, '| Key | Default |\n| --- | --- |\n| timeout | thirty seconds');
    expect(ranges.map((r) => passage.slice(r.start, r.end))).toEqual([
      'Key | Default',
      'timeout | thirty seconds',
    ]);
  });

  it('marks a sentence quoted from a block quote, across its > marks, without them', () => {
    const quoted = [
      '> ## Security Releases',
      '>',
      '> To avoid receiving breaking security updates, use the tilde',
      '> range qualifier for the dependency. So please use with caution.',
    ].join('\n');
    const ranges = quotedRanges(
      quoted,
      'To avoid receiving breaking security updates, use the tilde range qualifier for the dependency.',
    );
    expect(ranges.map((r) => quoted.slice(r.start, r.end))).toEqual([
      'To avoid receiving breaking security updates, use the tilde\n> range qualifier for the dependency.',
    ]);
  });

  it('finds nothing for a quote the passage does not hold, and then falls back to the best sentence', () => {
    expect(quotedRanges(passage, 'Backups run nightly at two.')).toEqual([]);
    const text = 'Every employee receives 27 days of paid vacation. Unused days carry over until March.';
    const ranges = citedRanges(text, null, null, 'Holidays are in May.', 'Unused vacation days carry over');
    expect(ranges.map((r) => text.slice(r.start, r.end))).toEqual(['Unused days carry over until March.']);
  });
});

describe('sentenceAround', () => {
  it('returns the sentence holding a marker, without markers', () => {
    const answer = 'Leave is long [1]. Vacation is 27 days [2]. Done.';
    expect(sentenceAround(answer, answer.indexOf('[2]'))).toBe('Vacation is 27 days.');
  });
});

describe('formatPages', () => {
  it('says "p. 12" for a page, "pp. 12–13" for a range and nothing for an unpaged source', () => {
    expect(formatPages({ first: 12, last: 12 })).toBe('p. 12');
    expect(formatPages({ first: 12, last: 13 })).toBe('pp. 12–13');
    expect(formatPages(undefined)).toBe('');
  });
});

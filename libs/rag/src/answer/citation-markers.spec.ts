import {
  citedMarkers,
  isMarkerGroup,
  passageForMarker,
  resolveCitations,
  rewriteMarkerGroup,
  withoutMarkerLookalikes,
} from './citation-markers';

const passage = (n: number) => ({
  marker: n,
  chunkId: `chunk-${n}`,
  documentId: `doc-${n}`,
  title: `Title ${n}`,
  headingPath: [`H${n}`],
  anchor: `h${n}`,
  spanStart: n * 10,
  spanEnd: n * 10 + 5,
});

describe('citation markers', () => {
  it('reads the cited markers once each, in order of first appearance', () => {
    expect(citedMarkers('B [2]. A [1][2]. C [3, 1]. Not [a] nor [].')).toEqual([2, 1, 3]);
  });

  it('recognises marker groups and nothing else', () => {
    expect(['1', '1, 2', '^3', 'Passage 4', 'sources 1; 2'].every(isMarkerGroup)).toBe(true);
    expect(['', 'a', '1a', 'see 1', '1 2'].some(isMarkerGroup)).toBe(false);
  });

  it('splits a group into valid and invalid markers', () => {
    expect(rewriteMarkerGroup('2, 9, 2, 0', 3)).toEqual({ replacement: '[2]', valid: [2], invalid: [9, 0] });
  });

  it('maps markers to the chunks of the passages, and reports markers naming none', () => {
    const { citations, dropped } = resolveCitations('X [2]. Y [9]. Z [1].', [passage(1), passage(2)]);
    expect(citations).toEqual([
      {
        marker: 2,
        chunkId: 'chunk-2',
        documentId: 'doc-2',
        title: 'Title 2',
        headingPath: ['H2'],
        anchor: 'h2',
        span: { start: 20, end: 25 },
      },
      expect.objectContaining({ marker: 1, chunkId: 'chunk-1' }),
    ]);
    expect(dropped).toEqual([9]);
  });

  it("maps a marker by the passage's own number, not by its position in the list", () => {
    const renumbered = [
      { ...passage(1), marker: 3 },
      { ...passage(2), marker: 2 },
      { ...passage(3), marker: 1 },
    ];
    const { citations, dropped } = resolveCitations('First [1]. Then [2]. Last [3].', renumbered);
    expect(citations.map((c) => [c.marker, c.chunkId])).toEqual([
      [1, 'chunk-3'],
      [2, 'chunk-2'],
      [3, 'chunk-1'],
    ]);
    expect(dropped).toEqual([]);
    expect(passageForMarker(4, renumbered)).toBeNull();
  });
});

describe('withoutMarkerLookalikes', () => {
  it('turns reference links into their text and unbrackets bracketed numbers', () => {
    expect(withoutMarkerLookalikes('See the release notes [here][2].')).toBe('See the release notes here.');
    expect(withoutMarkerLookalikes('As shown before [12], and [3, 4].')).toBe(
      'As shown before 12, and 3, 4.',
    );
    expect(citedMarkers(withoutMarkerLookalikes('Footnotes [^1] and [source 2] too.'))).toEqual([]);
  });

  it('keeps inline links and other brackets; a reference image becomes its alt text', () => {
    const text = 'Read [2](https://example.com/2) and [the guide](https://example.com) [x].';
    expect(withoutMarkerLookalikes(text)).toBe(text);
    expect(withoutMarkerLookalikes('The ![logo][1] shows.')).toBe('The logo shows.');
  });
});

import { RRF_K, convexScoreFusion, reciprocalRankFusion } from './reciprocal-rank-fusion';
import type { RankedItem, RankedList } from './reciprocal-rank-fusion';

function items(...ids: string[]): RankedItem[] {
  return ids.map((id, index) => ({ id, score: 10 - index }));
}

describe('reciprocalRankFusion', () => {
  it('uses k = 60 by default', () => {
    expect(RRF_K).toBe(60);
    const [only] = reciprocalRankFusion([{ name: 'bm25', items: items('a') }]);
    expect(only.score).toBe(1 / 61);
  });

  it('sums 1 / (k + rank) over the lists containing an id', () => {
    const fused = reciprocalRankFusion([
      { name: 'bm25', items: items('a', 'b', 'c') },
      { name: 'vector', items: items('b', 'a', 'd') },
    ]);
    expect(fused.map((item) => item.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(fused[0].score).toBeCloseTo(1 / 61 + 1 / 62, 15);
    expect(fused[1].score).toBeCloseTo(1 / 62 + 1 / 61, 15);
    expect(fused[2].score).toBe(1 / 63);
    expect(fused[3].score).toBe(1 / 63);
  });

  it('ranks an id found by several lists above one found at the top of a single list', () => {
    const fused = reciprocalRankFusion([
      { name: 'bm25', items: items('solo', 'both') },
      { name: 'vector', items: items('x', 'both') },
    ]);
    expect(fused.map((item) => item.id)).toEqual(['both', 'solo', 'x']);
    expect(fused[0].score).toBeCloseTo(2 / 62, 15);
  });

  it('honours a custom k', () => {
    const fused = reciprocalRankFusion(
      [
        { name: 'bm25', items: items('a', 'b') },
        { name: 'vector', items: items('b') },
      ],
      { k: 0 },
    );
    expect(fused).toEqual([
      { id: 'b', score: 1 / 2 + 1, provenance: expect.any(Array) },
      { id: 'a', score: 1, provenance: expect.any(Array) },
    ]);
  });

  it('records provenance in input list order with the original rank and score', () => {
    const fused = reciprocalRankFusion([
      {
        name: 'vector',
        items: [
          { id: 'x', score: 0.9 },
          { id: 'doc', score: 0.8 },
        ],
      },
      { name: 'bm25', items: [{ id: 'doc', score: 12.5 }] },
      { name: 'graph', items: [{ id: 'y', score: 3 }] },
    ]);
    const doc = fused.find((item) => item.id === 'doc');
    expect(doc?.provenance).toEqual([
      { list: 'vector', rank: 2, score: 0.8 },
      { list: 'bm25', rank: 1, score: 12.5 },
    ]);
  });

  it('scales contributions by list weight', () => {
    const fused = reciprocalRankFusion([
      { name: 'bm25', items: items('a', 'b'), weight: 0.5 },
      { name: 'vector', items: items('b', 'a'), weight: 2 },
    ]);
    expect(fused.map((item) => item.id)).toEqual(['b', 'a']);
    expect(fused[0].score).toBeCloseTo(0.5 / 62 + 2 / 61, 15);
    expect(fused[1].score).toBeCloseTo(0.5 / 61 + 2 / 62, 15);
  });

  it('keeps provenance but adds no score for weight 0 lists', () => {
    const fused = reciprocalRankFusion([
      { name: 'bm25', items: items('a', 'b') },
      { name: 'shadow', items: items('b', 'z'), weight: 0 },
    ]);
    expect(fused).toEqual([
      { id: 'a', score: 1 / 61, provenance: [{ list: 'bm25', rank: 1, score: 10 }] },
      {
        id: 'b',
        score: 1 / 62,
        provenance: [
          { list: 'bm25', rank: 2, score: 9 },
          { list: 'shadow', rank: 1, score: 10 },
        ],
      },
      { id: 'z', score: 0, provenance: [{ list: 'shadow', rank: 2, score: 9 }] },
    ]);
  });

  it('with weightedOnly, leaves out what only weight 0 lists found, unless no list carries weight', () => {
    const lists = [
      { name: 'bm25', items: items('a', 'b') },
      { name: 'shadow', items: items('b', 'z'), weight: 0 },
    ];
    expect(reciprocalRankFusion(lists, { weightedOnly: true }).map((item) => item.id)).toEqual(['a', 'b']);
    const unweighted = [{ name: 'shadow', items: items('b', 'z'), weight: 0 }];
    expect(reciprocalRankFusion(unweighted, { weightedOnly: true }).map((item) => item.id)).toEqual([
      'b',
      'z',
    ]);
  });

  it('does not let weight 0 lists break ties', () => {
    const fused = reciprocalRankFusion([
      { name: 'one', items: items('x', 'a') },
      { name: 'two', items: items('y', 'b') },
      { name: 'shadow', items: items('b'), weight: 0 },
    ]);
    expect(fused.map((item) => item.id)).toEqual(['x', 'y', 'a', 'b']);
  });

  it.each([-1, NaN, Infinity])('rejects weight %p', (weight) => {
    expect(() => reciprocalRankFusion([{ name: 'bm25', items: items('a'), weight }])).toThrow(RangeError);
    expect(() => reciprocalRankFusion([{ name: 'bm25', items: items('a'), weight }])).toThrow(/bm25/);
  });

  it.each([[{ k: -1 }], [{ k: NaN }], [{ limit: -1 }], [{ limit: 1.5 }]])(
    'rejects invalid options %p',
    (options) => {
      expect(() => reciprocalRankFusion([{ name: 'bm25', items: items('a') }], options)).toThrow(RangeError);
    },
  );

  it('counts only the first occurrence of an id within a list', () => {
    const fused = reciprocalRankFusion([{ name: 'bm25', items: items('a', 'b', 'a', 'c') }]);
    expect(fused.map((item) => item.id)).toEqual(['a', 'b', 'c']);
    expect(fused[0]).toEqual({ id: 'a', score: 1 / 61, provenance: [{ list: 'bm25', rank: 1, score: 10 }] });
    expect(fused[2]).toEqual({ id: 'c', score: 1 / 64, provenance: [{ list: 'bm25', rank: 4, score: 7 }] });
  });

  it('breaks score ties by best rank, then by id', () => {
    const fused = reciprocalRankFusion(
      [
        { name: 'first', items: items('m', 'b', 'a') },
        { name: 'second', items: items('x', 'y', 'z') },
      ],
      { k: 0 },
    );
    // a and z tie at 1/3 with the same best rank 3: id decides. b and y tie at 1/2. m and x tie at 1.
    expect(fused.map((item) => item.id)).toEqual(['m', 'x', 'b', 'y', 'a', 'z']);

    const byRank = reciprocalRankFusion([
      { name: 'one', items: items('late', 'pad1', 'pad2', 'early') },
      { name: 'two', items: items('early', 'pad3', 'pad4', 'late') },
      { name: 'three', items: items('pad5', 'pad6', 'pad7', 'pad8') },
    ]);
    // 'early' and 'late' both score 1/61 + 1/64; their best rank is 1 for both, so id decides.
    expect(byRank.slice(0, 2).map((item) => item.id)).toEqual(['early', 'late']);
    expect(byRank[0].score).toBe(byRank[1].score);
  });

  it('prefers the better best rank when scores tie exactly', () => {
    // With k = 0: 'a' = 1/2 + 1/6 = 2/3 and 'b' = 1/3 + 1/3 = 2/3, best ranks 2 and 3.
    const fused = reciprocalRankFusion(
      [
        { name: 'one', items: items('x', 'a', 'b') },
        { name: 'two', items: items('y', 'z', 'b', 'w', 'v', 'a') },
      ],
      { k: 0 },
    );
    const a = fused.find((item) => item.id === 'a');
    const b = fused.find((item) => item.id === 'b');
    expect(a?.score).toBe(b?.score);
    const order = fused.map((item) => item.id);
    expect(order.indexOf('a')).toBeLessThan(order.indexOf('b'));

    const reversedIds = reciprocalRankFusion(
      [
        { name: 'one', items: items('x', 'b', 'a') },
        { name: 'two', items: items('y', 'z', 'a', 'w', 'v', 'b') },
      ],
      { k: 0 },
    ).map((item) => item.id);
    expect(reversedIds.indexOf('b')).toBeLessThan(reversedIds.indexOf('a'));
  });

  it('is independent of the order in which lists are given, apart from provenance order', () => {
    const lists: RankedList[] = [
      { name: 'a', items: items('p', 'q', 'r', 's') },
      { name: 'b', items: items('s', 'r', 'q', 'p') },
      { name: 'c', items: items('q', 's', 'p', 'r'), weight: 1.5 },
    ];
    const forward = reciprocalRankFusion(lists).map(({ id, score }) => ({ id, score }));
    const backward = reciprocalRankFusion([...lists].reverse()).map(({ id, score }) => ({ id, score }));
    expect(backward).toEqual(forward);
  });

  it('truncates to limit after sorting', () => {
    const lists = [
      { name: 'bm25', items: items('a', 'b', 'c') },
      { name: 'vector', items: items('c', 'b', 'a') },
    ];
    // a and c: 1/61 + 1/63 each (tie, best rank 1, id decides); b: 2/62, which is slightly less.
    expect(reciprocalRankFusion(lists).map((item) => item.id)).toEqual(['a', 'c', 'b']);
    expect(reciprocalRankFusion(lists, { limit: 2 }).map((item) => item.id)).toEqual(['a', 'c']);
    expect(reciprocalRankFusion(lists, { limit: 0 })).toEqual([]);
    expect(reciprocalRankFusion(lists, { limit: 10 })).toHaveLength(3);
  });

  it('returns nothing for no lists or empty lists', () => {
    expect(reciprocalRankFusion([])).toEqual([]);
    expect(reciprocalRankFusion([{ name: 'bm25', items: [] }])).toEqual([]);
  });
});

describe('convexScoreFusion', () => {
  const scored = (name: string, entries: [string, number][], weight?: number): RankedList => ({
    name,
    weight,
    items: entries.map(([id, score]) => ({ id, score })),
  });

  it("sums each list's min-max scaled scores, weighted", () => {
    const fused = convexScoreFusion([
      scored('bm25', [
        ['a', 12],
        ['b', 8],
        ['c', 2],
      ]),
      scored(
        'dense',
        [
          ['b', 0.9],
          ['c', 0.7],
          ['d', 0.5],
        ],
        0.5,
      ),
    ]);
    expect(fused.map((item) => item.id)).toEqual(['b', 'a', 'c', 'd']);
    const score = Object.fromEntries(fused.map((item) => [item.id, item.score]));
    expect(score.a).toBeCloseTo(1, 12);
    expect(score.b).toBeCloseTo(0.6 + 0.5, 12);
    expect(score.c).toBeCloseTo(0 + 0.25, 12);
    expect(score.d).toBeCloseTo(0, 12);
  });

  it('gives every item of a list whose scores are all equal the full weight', () => {
    const fused = convexScoreFusion([
      scored('bm25', [
        ['a', 3],
        ['b', 3],
      ]),
    ]);
    expect(fused.map((item) => [item.id, item.score])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
  });

  it('keeps a weight-0 list to provenance with weightedOnly, as RRF does', () => {
    const fused = convexScoreFusion([scored('bm25', [['a', 1]]), scored('dense', [['z', 0.9]], 0)], {
      weightedOnly: true,
    });
    expect(fused.map((item) => item.id)).toEqual(['a']);
  });
});

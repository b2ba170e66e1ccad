import { formatMetricKey, parseMetricKey } from './metric-key';

describe('parseMetricKey', () => {
  it('parses the four metric names with their cutoffs', () => {
    expect(parseMetricKey('ndcg@10')).toEqual({ name: 'ndcg', k: 10 });
    expect(parseMetricKey('hit@1')).toEqual({ name: 'hit', k: 1 });
    expect(parseMetricKey('recall@100')).toEqual({ name: 'recall', k: 100 });
    expect(parseMetricKey('mrr@10')).toEqual({ name: 'mrr', k: 10 });
  });

  it('round-trips with formatMetricKey', () => {
    expect(formatMetricKey(parseMetricKey('recall@5'))).toBe('recall@5');
  });

  it('names unknown metrics', () => {
    expect(() => parseMetricKey('map@10')).toThrow('Unknown metric "map" in key "map@10"');
  });

  it.each(['ndcg', 'ndcg@', '@10', 'ndcg@0', 'ndcg@-1', 'ndcg@2.5', 'NDCG@10', ' ndcg@10', 'ndcg@10x'])(
    'rejects malformed key %j with the expected format',
    (key) => {
      expect(() => parseMetricKey(key)).toThrow(/<metric>@<k>.*"ndcg@10"/);
    },
  );
});

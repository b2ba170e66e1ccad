import { HASH_EMBEDDING_DIMENSION, HashEmbedder, hashVector } from './hash-embedder';

const dot = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + v * b[i], 0);

describe('HashEmbedder (benchmark stand-in)', () => {
  it('returns the same unit vector for the same text, whatever the case', async () => {
    const [a, b] = await new HashEmbedder().embed(['Replica failover', 'replica FAILOVER']);
    expect(a).toHaveLength(HASH_EMBEDDING_DIMENSION);
    expect(a).toEqual(b);
    expect(dot(a, a)).toBeCloseTo(1, 10);
  });

  it('puts texts that share words closer than texts that do not', () => {
    const base = hashVector('promote the standby replica after failover', 512);
    const near = hashVector('promote the standby replica', 512);
    const far = hashVector('nightly backups of the warehouse', 512);
    expect(dot(base, near)).toBeGreaterThan(dot(base, far) + 0.3);
  });

  it('gives an empty text a unit vector too', () => {
    const empty = hashVector('  ', 8);
    expect(empty).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
  });
});

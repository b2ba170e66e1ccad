import { l2Normalize } from './l2-normalize';

describe('l2Normalize', () => {
  it('scales to unit length', () => {
    // |(3, 4)| = 5 → (0.6, 0.8)
    expect(l2Normalize([3, 4])).toEqual([0.6, 0.8]);
  });

  it('keeps a zero vector zero', () => {
    expect(l2Normalize([0, 0])).toEqual([0, 0]);
  });

  it('rejects a non-finite component', () => {
    expect(() => l2Normalize([1, Number.NaN])).toThrow(RangeError);
  });
});

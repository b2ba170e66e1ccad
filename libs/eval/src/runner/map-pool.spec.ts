import { mapPool } from './map-pool';

describe('mapPool', () => {
  it('keeps the items order and never runs more than `concurrency` calls at once', async () => {
    let running = 0;
    let most = 0;
    const results = await mapPool([30, 10, 20, 5], 2, async (ms) => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      running--;
      return ms * 2;
    });
    expect(results).toEqual([60, 20, 40, 10]);
    expect(most).toBe(2);
  });

  it('rejects with the first failure', async () => {
    await expect(
      mapPool([1, 2], 1, async (n) => {
        if (n === 2) throw new Error('two');
        return n;
      }),
    ).rejects.toThrow('two');
  });
});

import { bootstrapMeanInterval, pairedBootstrapInterval } from './bootstrap-interval';
import { mulberry32 } from './mulberry32';

/** Returns the given numbers in order, then fails loudly if asked for more. */
function sequence(values: number[]): () => number {
  let index = 0;
  return () => {
    if (index >= values.length) throw new Error('sequence exhausted');
    return values[index++];
  };
}

describe('bootstrapMeanInterval', () => {
  it('takes percentiles of the resampled means', () => {
    // values [1, 2, 3, 4], n = 4; index = floor(r * 4)
    // resample 1: r = 0.1 x4        -> indices 0,0,0,0 -> mean (1+1+1+1)/4 = 1
    // resample 2: r = 0.1,.3,.6,.9  -> indices 0,1,2,3 -> mean 10/4 = 2.5
    // resample 3: r = .9,.9,.9,.6   -> indices 3,3,3,2 -> mean (4+4+4+3)/4 = 3.75
    // sorted means [1, 2.5, 3.75]; confidence 0.5 -> quantiles 0.25 and 0.75
    // q = 0.25: h = 2 * 0.25 = 0.5 -> 1 + 0.5 * 1.5 = 1.75; q = 0.75: h = 1.5 -> 2.5 + 0.5 * 1.25 = 3.125
    const random = sequence([0.1, 0.1, 0.1, 0.1, 0.1, 0.3, 0.6, 0.9, 0.9, 0.9, 0.9, 0.6]);
    const interval = bootstrapMeanInterval([1, 2, 3, 4], { iterations: 3, confidence: 0.5, random });
    expect(interval).toEqual({ mean: 2.5, low: 1.75, high: 3.125 });
  });

  it('collapses to the value for a constant sample', () => {
    // every resample of [0.4, 0.4, 0.4] has mean 0.4
    const interval = bootstrapMeanInterval([0.4, 0.4, 0.4]);
    expect(interval.mean).toBeCloseTo(0.4, 12);
    expect(interval.low).toBeCloseTo(0.4, 12);
    expect(interval.high).toBeCloseTo(0.4, 12);
  });

  it('is close to the normal interval for a 0/1 sample and reproducible with the default seed', () => {
    // 30 ones, 70 zeros: mean 0.3, standard error sqrt(0.3 * 0.7 / 100) = 0.0458258
    // normal 95%: 0.3 -+ 1.96 * 0.0458258 = [0.2101814, 0.3898186]; allow 0.02 for bootstrap noise
    const values = Array.from({ length: 100 }, (_, i) => (i < 30 ? 1 : 0));
    const interval = bootstrapMeanInterval(values);
    expect(interval.mean).toBeCloseTo(0.3, 12);
    expect(Math.abs(interval.low - 0.2101814)).toBeLessThan(0.02);
    expect(Math.abs(interval.high - 0.3898186)).toBeLessThan(0.02);
    expect(bootstrapMeanInterval(values)).toEqual(interval);
    // the seed option seeds mulberry32
    const values2 = [0.12, 0.5, 0.33, 0.91, 0.07, 0.64];
    expect(bootstrapMeanInterval(values2, { seed: 43 })).toEqual(
      bootstrapMeanInterval(values2, { random: mulberry32(43) }),
    );
  });

  it('rejects empty samples and bad options', () => {
    expect(() => bootstrapMeanInterval([])).toThrow('empty');
    expect(() => bootstrapMeanInterval([1], { iterations: 0 })).toThrow('iterations');
    expect(() => bootstrapMeanInterval([1], { confidence: 1 })).toThrow('confidence');
    expect(() => bootstrapMeanInterval([1, Number.NaN])).toThrow('values[1]');
  });
});

describe('pairedBootstrapInterval', () => {
  it('bootstraps the paired differences b - a', () => {
    // differences: 3-1 = 2, 3-2 = 1, 3-3 = 0, 7-4 = 3 -> mean 6/4 = 1.5
    // n = 4 picks per resample, index = floor(r * 4)
    // resample 1: r = .1,.1,.1,.1 -> diffs 2,2,2,2 -> mean 2
    // resample 2: r = .3,.3,.6,.6 -> diffs 1,1,0,0 -> mean 0.5
    // sorted [0.5, 2]; confidence 0.5 -> q 0.25: h = 0.25 -> 0.5 + 0.25 * 1.5 = 0.875; q 0.75: h = 0.75 -> 1.625
    const random = sequence([0.1, 0.1, 0.1, 0.1, 0.3, 0.3, 0.6, 0.6]);
    const interval = pairedBootstrapInterval([1, 2, 3, 4], [3, 3, 3, 7], {
      iterations: 2,
      confidence: 0.5,
      random,
    });
    expect(interval).toEqual({ meanDiff: 1.5, low: 0.875, high: 1.625 });
  });

  it('requires paired samples of equal length', () => {
    expect(() => pairedBootstrapInterval([1, 2], [1])).toThrow('same length, got 2 and 1');
  });
});

import { fromFloat16Bits, toFloat16Bits } from './float16';

describe('toFloat16Bits', () => {
  it.each([
    [0, 0x0000],
    [-0, 0x8000],
    [1, 0x3c00],
    [-2, 0xc000],
    [0.5, 0x3800],
    [65504, 0x7bff], // largest half
    [2 ** -14, 0x0400], // smallest normal
    [2 ** -24, 0x0001], // smallest subnormal
    [Infinity, 0x7c00],
    [1e6, 0x7c00], // overflow
  ])('%p → %p', (value, bits) => {
    expect(toFloat16Bits(value)).toBe(bits);
  });

  it('rounds to the nearest half, ties to even', () => {
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1).
    expect(toFloat16Bits(1 + 2 ** -11)).toBe(0x3c00);
    // 1 + 3·2^-11 is halfway between 1 + 2^-10 (odd) and 1 + 2^-9 (even).
    expect(toFloat16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(toFloat16Bits(1 + 2 ** -11 + 2 ** -16)).toBe(0x3c01);
  });

  it('keeps every component of a unit vector within 2^-11 of itself', () => {
    for (let i = 1; i < 2000; i++) {
      const value = Math.sin(i) / 20;
      const back = fromFloat16Bits(toFloat16Bits(value));
      expect(Math.abs(back - value)).toBeLessThanOrEqual(Math.max(Math.abs(value) * 2 ** -11, 2 ** -25));
    }
  });
});

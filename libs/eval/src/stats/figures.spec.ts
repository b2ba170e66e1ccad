import { round4, signed4 } from './figures';

describe('figures', () => {
  it('rounds to four decimals', () => {
    expect(round4(0.86264)).toBe(0.8626);
    expect(round4(0.86265001)).toBe(0.8627);
    expect(round4(-0.00144)).toBe(-0.0014);
  });

  it('signs a difference, zero as a gain', () => {
    expect(signed4(0.0109)).toBe('+0.0109');
    expect(signed4(-0.0014)).toBe('-0.0014');
    expect(signed4(0)).toBe('+0.0000');
  });
});

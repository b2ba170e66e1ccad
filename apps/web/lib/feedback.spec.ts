import { dailyPoints, dailyTotals, defaultScope, percent, ratingSummary, reasonsFor } from './feedback';

describe('feedback helpers', () => {
  it('offers the refusal reasons that fit the answer', () => {
    expect(reasonsFor(true)).toContain('wrongly_refused');
    expect(reasonsFor(true)).not.toContain('should_have_refused');
    expect(reasonsFor(false)).toContain('should_have_refused');
    expect(reasonsFor(false)).not.toContain('wrongly_refused');
    expect(reasonsFor(false)).toEqual([
      'wrong',
      'incomplete',
      'wrong_citation',
      'should_have_refused',
      'outdated',
    ]);
  });

  it('proposes the scope from the refusal reasons and leaves the rest to the reviewer', () => {
    expect(defaultScope(['should_have_refused'])).toBe(false);
    expect(defaultScope(['wrongly_refused', 'outdated'])).toBe(true);
    expect(defaultScope(['wrong'])).toBeNull();
    expect(defaultScope([])).toBeNull();
  });

  it('says what was rated', () => {
    expect(ratingSummary('up', [])).toBe('You found this answer helpful.');
    expect(ratingSummary('down', [])).toBe('You rated this answer down.');
    expect(ratingSummary('down', ['wrong', 'outdated'])).toBe('You rated this answer down: Wrong, Outdated.');
  });

  it('turns days into rates, with gaps where there is nothing to divide by', () => {
    const days = [
      { day: '2026-12-01', answers: 0, notFound: 0, up: 0, down: 0 },
      { day: '2026-12-02', answers: 4, notFound: 1, up: 1, down: 3 },
    ];
    expect(dailyPoints(days)).toEqual([
      {
        day: '2026-12-01',
        label: '12-01',
        answers: 0,
        notFound: 0,
        notFoundRate: null,
        downRate: null,
        up: 0,
        down: 0,
      },
      {
        day: '2026-12-02',
        label: '12-02',
        answers: 4,
        notFound: 1,
        notFoundRate: 0.25,
        downRate: 0.75,
        up: 1,
        down: 3,
      },
    ]);
    expect(dailyTotals(days)).toEqual({
      answers: 4,
      notFound: 1,
      up: 1,
      down: 3,
      notFoundRate: 0.25,
      downRate: 0.75,
    });
    expect(dailyTotals([days[0]]).downRate).toBeNull();
    expect(percent(null)).toBe('–');
    expect(percent(0.254)).toBe('25%');
  });
});

import { answerWithSources, formatDuration } from './answer-copy';

describe('answerWithSources', () => {
  it('appends each source once, by marker, with heading path and pages', () => {
    const text = answerWithSources('Promote it [2]. Repoint the app [1][2]. ', [
      { marker: 2, title: 'Runbook', headingPath: ['Failover'], pages: { first: 3, last: 4 } },
      { marker: 1, title: 'Guide', headingPath: ['Guide'] },
      { marker: 2, title: 'Runbook', headingPath: ['Failover'], pages: { first: 3, last: 4 } },
    ]);
    expect(text).toBe(
      'Promote it [2]. Repoint the app [1][2].\n\n**Sources**\n\n- [1] Guide\n- [2] Runbook › Failover (pp. 3–4)',
    );
  });

  it('copies an answer without sources as its text alone', () => {
    expect(answerWithSources(' Paris. ', [])).toBe('Paris.');
  });
});

describe('formatDuration', () => {
  it('shows milliseconds below one second and seconds above, never "0.0 s"', () => {
    expect(formatDuration(0.4)).toBe('< 1 ms');
    expect(formatDuration(42.4)).toBe('42 ms');
    expect(formatDuration(999.4)).toBe('999 ms');
    expect(formatDuration(999.6)).toBe('1.0 s');
    expect(formatDuration(2449)).toBe('2.4 s');
  });
});

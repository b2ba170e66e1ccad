import { LANGUAGE_SAMPLE_CHARS, languageSample } from './language-sample';

describe('languageSample', () => {
  it('keeps a text no longer than the budget as it is', () => {
    const text = 'A short paragraph about leave.';
    expect(languageSample(text)).toBe(text);
    expect(languageSample('x'.repeat(LANGUAGE_SAMPLE_CHARS))).toHaveLength(LANGUAGE_SAMPLE_CHARS);
  });

  it('reads a long text at its start, middle and end, within the budget', () => {
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`);
    const sample = languageSample(words.join(' '), 90);
    const windows = sample.split('\n');
    expect(windows).toHaveLength(3);
    expect(sample.length).toBeLessThanOrEqual(90 + 2);
    expect(windows[0]!.startsWith('w0 w1 ')).toBe(true);
    expect(windows[2]!.endsWith(' w398 w399')).toBe(true);
    const middle = windows[1]!.split(' ').map((w) => Number(w.slice(1)));
    expect(Math.min(...middle)).toBeGreaterThan(150);
    expect(Math.max(...middle)).toBeLessThan(250);
  });

  it('cuts windows at spaces, never inside a word', () => {
    const words = Array.from({ length: 300 }, (_, i) => `word${i}x`);
    const text = words.join(' ');
    for (const window of languageSample(text, 100).split('\n')) {
      for (const word of window.split(' ')) expect(words).toContain(word);
    }
  });

  it('cuts a script written without spaces by characters', () => {
    const text = '第五十届超级碗是美国国家橄榄球联盟的一场比赛。'.repeat(40);
    const sample = languageSample(text, 60);
    expect(sample.split('\n').map((w) => w.length)).toEqual([20, 20, 20]);
  });

  it('lets the body outvote a header in another language', () => {
    const header = 'Licensed under the Apache License, Version 2.0. See the LICENSE file. ';
    const body = 'Die Mitarbeiter erhalten dreißig Tage Urlaub im Jahr. '.repeat(30);
    const windows = languageSample(header + body, 300).split('\n');
    expect(windows.filter((w) => w.includes('Urlaub'))).toHaveLength(2);
  });
});

import { AnswerSanitizer, LINK_REMOVED, safeCut, sanitizeAnswer } from './answer-sanitizer';

/** Feed `text` in pieces of `size` characters, collecting what the sanitizer lets through each time. */
function streamed(text: string, passageCount: number, size: number) {
  const sanitizer = new AnswerSanitizer(passageCount);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(sanitizer.push(text.slice(i, i + size)));
  pieces.push(sanitizer.end());
  return { sanitizer, out: pieces.join(''), pieces };
}

describe('AnswerSanitizer', () => {
  it('keeps valid markers, drops markers naming no passage with the space before them, and reports them', () => {
    const result = sanitizeAnswer(
      'Promote the replica [1]. Then repoint it [9]. Backups run nightly [2, 7].',
      3,
    );
    expect(result.text).toBe('Promote the replica [1]. Then repoint it. Backups run nightly [2].');
    expect(result.citedMarkers).toEqual([1, 2]);
    expect(result.droppedMarkers).toEqual([9, 7]);
  });

  it('writes marker variants canonically', () => {
    expect(sanitizeAnswer('A [1, 2]. B [^3]. C [Passage 2]. D [source 1; 3].', 3).text).toBe(
      'A [1][2]. B [3]. C [2]. D [1][3].',
    );
  });

  it('treats [0] as naming no passage', () => {
    const result = sanitizeAnswer('Zero [0] and one [1].', 2);
    expect(result.text).toBe('Zero and one [1].');
    expect(result.droppedMarkers).toEqual([0]);
  });

  it.each([
    ['a Markdown link', 'See [the runbook](https://evil.example/x?y=1) now [1].', 'See the runbook now [1].'],
    ['a link on a marker', 'Promote it [1](https://x.example).', 'Promote it [1].'],
    ['an image', 'Look ![diagram](http://x.example/a.png) here.', 'Look diagram here.'],
    ['a bare URL', 'Go to https://evil.example/path. Then stop.', `Go to ${LINK_REMOVED}. Then stop.`],
    ['a www address', 'Visit www.evil.example for more.', `Visit ${LINK_REMOVED} for more.`],
    ['an autolink', 'Mail <https://evil.example> now.', `Mail ${LINK_REMOVED} now.`],
    ['an HTML link', 'Read <a href="https://evil.example">this page</a> first.', 'Read this page first.'],
    ['a link with a title', 'A [b](http://c.example "t") d.', 'A b d.'],
  ])('neutralises %s', (_label, input, expected) => {
    const result = sanitizeAnswer(input, 2);
    expect(result.text).toBe(expected);
    expect(result.linksRemoved).toBe(1);
  });

  it('leaves ordinary brackets and angle brackets alone', () => {
    const text = 'Use pg_ctl [options] when x < 3 and y > 2 [1].';
    expect(sanitizeAnswer(text, 1).text).toBe(text);
  });

  it('drops a leading reasoning block, also one cut off by the token limit', () => {
    expect(sanitizeAnswer('<think>passage 2 has it</think>\n\nThe answer [2].', 2).text).toBe(
      'The answer [2].',
    );
    expect(sanitizeAnswer('<think>still thinking', 2).text).toBe('');
  });

  it.each([1, 2, 3, 5, 7])('streams in %i-character pieces exactly what it cleans at once', (size) => {
    const text =
      '<think>hmm</think>Promote the standby [1][9] with `pg_ctl promote` [2, 4]. See [docs](https://x.example/a(b)) ' +
      'or https://y.example/z. ![img](http://i.example/p.png) Done [3]. 数据库。备份 [1]。 <a href="u">t</a> end';
    const whole = sanitizeAnswer(text, 3);
    const { out, sanitizer } = streamed(text, 3, size);
    expect(out).toBe(whole.text);
    expect(sanitizer.droppedMarkers).toEqual(whole.droppedMarkers);
    expect(sanitizer.citedMarkers).toEqual(whole.citedMarkers);
    expect(out).not.toMatch(/https?:|www\.|\[9\]|\[4\]|think/);
  });

  it('never lets a URL or an invalid marker out early, and does not hold text back longer than a word', () => {
    const sanitizer = new AnswerSanitizer(2);
    expect(sanitizer.push('The primary fails over')).toBe('The primary fails');
    expect(sanitizer.push(' ')).toBe(' over');
    expect(sanitizer.push('quickly [')).toBe(' quickly');
    expect(sanitizer.push('9')).toBe('');
    expect(sanitizer.push('] and http')).toBe(' and');
    expect(sanitizer.push('s://evil.exa')).toBe('');
    expect(sanitizer.push('mple/x done')).toBe(` ${LINK_REMOVED}`);
    expect(sanitizer.end()).toBe(' done');
    expect(sanitizer.text).toBe(`The primary fails over quickly and ${LINK_REMOVED} done`);
    expect(sanitizer.droppedMarkers).toEqual([9]);
  });
});

describe('safeCut', () => {
  it('cuts before the last whitespace outside a construct', () => {
    expect(safeCut('one two three')).toBe(7);
    expect(safeCut('see [the docs](http://x.example)')).toBe(3);
    expect(safeCut('a [1, 2')).toBe(1);
    expect(safeCut('nospace')).toBe(0);
  });
});

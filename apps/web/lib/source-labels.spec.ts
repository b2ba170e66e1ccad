import { openingWords, passageLabel, passageSourceLabel } from './source-labels';

describe('source labels', () => {
  it('names a passage by its title and the headings under it', () => {
    expect(passageLabel('Multer', ['Multer', 'Usage'])).toBe('Multer › Usage');
  });

  it('reads the first words of a passage without headings, fences or Markdown marks', () => {
    expect(
      openingWords('## Usage\n\nMulter adds a **body** object and a `file` object to the request.'),
    ).toBe('Multer adds a body object and a file…');
    expect(openingWords('```js\nconst a = 1;\n```')).toBe('const a = 1;');
    expect(openingWords('| Key | Default |\n| --- | --- |')).toBe('Key Default');
    expect(openingWords('See [the docs](https://x.example/docs).')).toBe('See the docs.');
    expect(openingWords('# Only a heading')).toBe('');
  });

  it('tells apart passages under the same heading by their opening and page', () => {
    const first = passageSourceLabel('Multer', ['Usage'], 'Multer adds a body object to the request.');
    const second = passageSourceLabel('Multer', ['Usage'], "Don't forget the enctype on your form.", {
      first: 3,
      last: 3,
    });
    expect(first).toBe('Multer › Usage — “Multer adds a body object to the request.”');
    expect(second).toBe("Multer › Usage, p. 3 — “Don't forget the enctype on your form.”");
    expect(first).not.toBe(second);
  });
});

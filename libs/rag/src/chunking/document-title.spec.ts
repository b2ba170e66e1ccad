import { cleanDocumentTitle, markdownDocumentTitle } from './document-title';

describe('document titles', () => {
  it('strips badges, images, links, emphasis and HTML from a title', () => {
    expect(
      cleanDocumentTitle(
        'Multer [![NPM Version][npm-version-image]][npm-url] [![Build](https://x/b.svg)](https://ci)',
      ),
    ).toBe('Multer');
    expect(cleanDocumentTitle('**Fast** and _small_ `yaml` [parser](https://eemeli.org)')).toBe(
      'Fast and small yaml parser',
    );
    expect(cleanDocumentTitle('<a href="https://x">Helmet</a> <sup>beta</sup>')).toBe('Helmet beta');
    expect(cleanDocumentTitle('pino-http&nbsp;&nbsp;[![Build Status](https://img/ci.svg)](https://ci)')).toBe(
      'pino-http',
    );
    // A type's parameters are not HTML.
    expect(cleanDocumentTitle('Struct Vec<T>')).toBe('Struct Vec<T>');
    // Only a logo: its alt text.
    expect(cleanDocumentTitle('[![ioredis](https://cdn/ioredis.svg)](https://github.com/luin/ioredis)')).toBe(
      'ioredis',
    );
  });

  it('takes front matter title, else the first H1 before any section, else nothing', () => {
    expect(markdownDocumentTitle('---\nlayout: doc\ntitle: "Getting *started*"\n---\n# Other\n')).toBe(
      'Getting started',
    );
    expect(
      markdownDocumentTitle('# Multer [![NPM Version][npm-version-image]][npm-url]\n\nText.\n\n## Usage\n'),
    ).toBe('Multer');
    expect(
      markdownDocumentTitle(
        '<h1 align="center"><img alt="BullMQ" src="logo.png"></h1>\n\n## Intro\n\n# 🛠 Tutorials\n',
      ),
    ).toBe('BullMQ');
    // A level-1 heading after the sections names a section, not the document.
    expect(markdownDocumentTitle('Intro text.\n\n## Install\n\n# Features\n')).toBeNull();
    expect(markdownDocumentTitle('Setext title\n============\n\nBody.\n')).toBe('Setext title');
    expect(markdownDocumentTitle('No headings at all.')).toBeNull();
  });
});

/**
 * Unit specs: the zustand slices, the API client and the Markdown renderer, no browser and no server
 * needed. react-markdown and the unified packages under it ship ES modules only.
 */
const ESM_ONLY = [
  'react-markdown',
  'remark-[\\w-]+',
  'unified',
  'bail',
  'devlop',
  'is-plain-obj',
  'trough',
  'vfile(-[\\w-]+)?',
  '(micromark|mdast-util|hast-util|unist-util|estree-util)(-[\\w-]+)?',
  'character-[\\w-]+',
  'decode-named-character-reference',
  'parse-entities',
  'stringify-entities',
  'is-(alphabetical|alphanumerical|decimal|hexadecimal)',
  '(comma|space)-separated-tokens',
  'property-information',
  'html-url-attributes',
  'ccount',
  'longest-streak',
  'markdown-table',
  'trim-lines',
  'zwitch',
  'escape-string-regexp',
  '@ungap/structured-clone',
];

module.exports = require('../../jest.preset.js')(
  __dirname,
  {
    displayName: 'web',
    testMatch: ['**/store/**/*.spec.ts', '**/lib/**/*.spec.ts', '**/lib/**/*.spec.tsx'],
  },
  ESM_ONLY,
);

import type { SeededRandom } from './seeded-random';

/**
 * The head of the vocabulary is real English, most frequent first: function words (which the 'english'
 * text-search configuration drops as stop words, as in real chunks) and then common content words
 * (which become the long postings lists BM25 must read). The tail is pronounceable made-up words.
 */
const ENGLISH_HEAD = `the of and to a in is that for it as was with be by on not this are or from at which but
have an had they you were their one all we can her has there been if more when will would who so no
its into than them these some other then could only may also our any such after most over between
time system data use used new first two number process work part each well under how where because
service user information value file model result state change order support level report set version
table query index server client request response error method function type name key access policy
team project plan design test release update security network storage memory cache disk cluster node
region backup recovery customer account payment invoice contract price market product feature issue
review meeting budget risk schedule document page section example step case rule limit rate cost`
  .split(/\s+/)
  .filter(Boolean);

const ONSETS = [
  'b',
  'c',
  'd',
  'f',
  'g',
  'h',
  'k',
  'l',
  'm',
  'n',
  'p',
  'r',
  's',
  't',
  'v',
  'z',
  'br',
  'cr',
  'dr',
  'gl',
  'pl',
  'pr',
  'st',
  'tr',
  'sh',
  'ch',
  'th',
  'qu',
];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou'];
const CODAS = ['', '', '', 'n', 'r', 'l', 'm', 'x', 'nd', 'rk', 'lt', 'sk'];

/** `size` distinct lower-case words: the English head, then made-up words of 2–4 syllables. */
export function buildVocabulary(size: number, random: SeededRandom): string[] {
  const words = ENGLISH_HEAD.slice(0, size);
  const seen = new Set(words);
  while (words.length < size) {
    const syllables = random.between(2, 4);
    let word = '';
    for (let s = 0; s < syllables; s++) {
      word += ONSETS[random.int(ONSETS.length)] + NUCLEI[random.int(NUCLEI.length)];
      if (s === syllables - 1 || random.next() < 0.3) word += CODAS[random.int(CODAS.length)];
    }
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

/** How many words at the top of the vocabulary are real English (the rest are made up). */
export const ENGLISH_HEAD_SIZE = ENGLISH_HEAD.length;

import { mulberry32 } from '@lumina/rag';

export interface RandomWordDocument {
  id: string;
  title: string;
  text: string;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Documents of random lowercase words (4–10 letters), `bytes` long each: an upload of nonsense that adds
 * tens of thousands of terms to the BM25 vocabulary. Deterministic for a seed, so runs compare.
 */
export function randomWordDocuments(count: number, bytes: number, seed = 38): RandomWordDocument[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, (_, index) => {
    const words: string[] = [];
    let length = -1; // the joined text has one space fewer than words
    while (length < bytes) {
      const size = 4 + Math.floor(random() * 7);
      let word = '';
      for (let i = 0; i < size; i += 1) word += LETTERS[Math.floor(random() * LETTERS.length)];
      words.push(word);
      length += word.length + 1;
    }
    return { id: `random-words-${index + 1}`, title: `Random words ${index + 1}`, text: words.join(' ') };
  });
}

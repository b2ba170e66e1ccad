import { randomWordDocuments } from './random-word-documents';

describe('randomWordDocuments', () => {
  it('writes count documents of about `bytes` of mostly distinct random words, the same for a seed', () => {
    const documents = randomWordDocuments(2, 200 * 1024);
    expect(documents.map((d) => d.id)).toEqual(['random-words-1', 'random-words-2']);
    for (const document of documents) {
      expect(document.text.length).toBeGreaterThanOrEqual(200 * 1024);
      expect(document.text.length).toBeLessThan(200 * 1024 + 12);
      const words = document.text.split(' ');
      expect(words.every((word) => /^[a-z]{4,10}$/.test(word))).toBe(true);
      expect(new Set(words).size / words.length).toBeGreaterThan(0.95);
    }
    expect(documents[0].text).not.toBe(documents[1].text);
    expect(randomWordDocuments(2, 200 * 1024)).toEqual(documents);
    expect(randomWordDocuments(1, 1024, 7)[0].text).not.toBe(randomWordDocuments(1, 1024, 8)[0].text);
  });
});

import { NOT_FOUND_SENTENCE } from './chat';
import { NOT_FOUND_SENTENCES, notFoundSentence } from './not-found-sentences';

describe('notFoundSentence', () => {
  it('gives the sentence of the question language, by code or tag', () => {
    expect(notFoundSentence('zh')).toBe('所提供的文档没有足够的信息来回答这个问题。');
    expect(notFoundSentence('de')).toBe(NOT_FOUND_SENTENCES['de']);
    expect(notFoundSentence('pt-BR')).toBe(NOT_FOUND_SENTENCES['pt']);
    expect(notFoundSentence('ZH_Hans')).toBe(NOT_FOUND_SENTENCES['zh']);
  });

  it('falls back to English for an unknown or undetected language', () => {
    expect(notFoundSentence('xx')).toBe(NOT_FOUND_SENTENCE);
    expect(notFoundSentence(null)).toBe(NOT_FOUND_SENTENCE);
    expect(notFoundSentence(undefined)).toBe(NOT_FOUND_SENTENCE);
    expect(notFoundSentence('en')).toBe(NOT_FOUND_SENTENCE);
  });

  it('has one distinct sentence per language', () => {
    const sentences = Object.values(NOT_FOUND_SENTENCES);
    expect(new Set(sentences).size).toBe(sentences.length);
  });
});

import type { QuestionBankItem } from '@lumina/shared';
import {
  addSourceLine,
  draftFromItem,
  isUnreviewedDraft,
  EMPTY_DRAFT,
  hasSourceLine,
  inputFromDraft,
  parseSourcesText,
  removeSourceLine,
  sourcesToText,
} from './item-form';

describe('item form', () => {
  it('reads sources: document ids, chunk ids and grades, one a line', () => {
    expect(parseSourcesText('doc-1\n\nchunk:c-9 grade=2\n  BEIR-42  ')).toEqual({
      sources: [{ documentId: 'doc-1' }, { chunkId: 'c-9', grade: 2 }, { documentId: 'BEIR-42' }],
    });
    expect(parseSourcesText('doc-1 weight=3')).toEqual({
      error: 'Line 1 of the sources: "weight=3" is not "grade=<number>".',
    });
  });

  it('round-trips an item through the form', () => {
    const item = {
      question: 'How long?',
      expectedAnswer: 'Sixteen weeks',
      inScope: true,
      expectedSources: [{ chunkId: 'c1' }, { documentId: 'd1', grade: 2 }],
      language: 'en',
      tags: ['leave', 'parents'],
      difficulty: 'easy',
    } as QuestionBankItem;
    const draft = draftFromItem(item);
    expect(draft.sources).toBe(sourcesToText(item.expectedSources));
    expect(inputFromDraft(draft)).toEqual({
      input: {
        question: 'How long?',
        expectedAnswer: 'Sixteen weeks',
        inScope: true,
        expectedSources: [{ chunkId: 'c1' }, { documentId: 'd1', grade: 2 }],
        language: 'en',
        tags: ['leave', 'parents'],
        difficulty: 'easy',
      },
    });
  });

  it('asks for a question, and sends empty optional fields as null', () => {
    expect(inputFromDraft(EMPTY_DRAFT)).toEqual({ error: 'Write the question first.' });
    expect(inputFromDraft({ ...EMPTY_DRAFT, question: ' q ' })).toEqual({
      input: {
        question: 'q',
        expectedAnswer: null,
        inScope: true,
        expectedSources: [],
        tags: [],
        language: 'en',
        difficulty: null,
      },
    });
  });
});

describe('sources picked from the library', () => {
  it('adds a passage or a document as a line once, keeps graded lines, and removes by reference', () => {
    let text = addSourceLine('', { chunkId: 'c-1' });
    expect(text).toBe('chunk:c-1');
    text = addSourceLine(text, { documentId: 'd-1' });
    expect(text).toBe('chunk:c-1\nd-1');
    expect(addSourceLine('chunk:c-1 grade=2\n', { chunkId: 'c-1' })).toBe('chunk:c-1 grade=2\n');
    expect(hasSourceLine(text, { documentId: 'd-1' })).toBe(true);
    expect(hasSourceLine(text, { documentId: 'c-1' })).toBe(false);
    expect(removeSourceLine('chunk:c-1 grade=2\nd-1', { chunkId: 'c-1' })).toBe('d-1');
    expect(parseSourcesText(text)).toEqual({ sources: [{ chunkId: 'c-1' }, { documentId: 'd-1' }] });
  });
});

describe('isUnreviewedDraft', () => {
  const at = '2026-12-01T10:00:00.000Z';
  it('marks offline template questions until someone edits them', () => {
    expect(isUnreviewedDraft({ generator: 'template', createdAt: at, updatedAt: at })).toBe(true);
    expect(
      isUnreviewedDraft({ generator: 'template', createdAt: at, updatedAt: '2026-12-01T10:05:00.000Z' }),
    ).toBe(false);
    expect(isUnreviewedDraft({ generator: 'llm', createdAt: at, updatedAt: at })).toBe(false);
    expect(isUnreviewedDraft({ generator: null, createdAt: at, updatedAt: at })).toBe(false);
  });
});

import type { AnswerabilityVerdict } from '@lumina/shared';
import { searchResult } from '../testing';
import {
  DEFAULT_FOLLOW_UP_RULE,
  followUpEvidence,
  followUpReason,
  followUpSignals,
  searchFollowUp,
} from './follow-up-query';
import type { FollowUpRule } from './follow-up-query';

const verdict = (score: number, idfs: number[]): AnswerabilityVerdict => ({
  modelVersion: 'm',
  score,
  threshold: 0.2,
  answerable: score >= 0.2,
  features: {},
  contributions: {},
  terms: idfs.map((idf, i) => ({ term: `t${i}`, df: idf === 0 ? 50 : 1, idf })),
});

const rule = (overrides: Partial<FollowUpRule>): FollowUpRule => ({
  ...DEFAULT_FOLLOW_UP_RULE,
  ...overrides,
});

describe('follow-up decision', () => {
  it('reads references, salient words and the answerability of the question alone', () => {
    const evidence = followUpEvidence('does that work in the browser too?', {
      answerability: verdict(0.4, [3, 0.5]),
    });
    expect(evidence.refersBack).toBe(true);
    expect(followUpSignals(evidence, 1)).toEqual({ refersBack: true, salientTerms: 1, answerability: 0.4 });
    // "there", "one" and "the same" alone are not references.
    for (const question of [
      'is there an eslint plugin for pino',
      'tag every line from one module',
      'set the same key',
    ])
      expect(followUpEvidence(question, { answerability: null }).refersBack).toBe(false);
    for (const question of [
      'can it go down?',
      'are they slow?',
      'which of those is faster',
      'and the second one?',
    ])
      expect(followUpEvidence(question, { answerability: null }).refersBack).toBe(true);
  });

  it('adds the earlier turn for a reference only while the question alone looks unanswerable', () => {
    const refers = { refersBack: true, salientTerms: 3, answerability: 0.5 };
    expect(followUpReason(refers, rule({ referenceBelow: 0.7 }))).toBe('refers-back');
    expect(followUpReason({ ...refers, answerability: 0.9 }, rule({ referenceBelow: 0.7 }))).toBe(
      'stands-alone',
    );
    expect(
      followUpReason({ ...refers, refersBack: false, salientTerms: 0 }, rule({ maxSalientTerms: 0 })),
    ).toBe('no-salient-terms');
    expect(followUpReason({ ...refers, refersBack: false }, rule({ minAnswerability: 0.6 }))).toBe(
      'low-answerability',
    );
    expect(followUpReason({ ...refers, refersBack: false }, DEFAULT_FOLLOW_UP_RULE)).toBe('stands-alone');
  });

  it('searches the question alone first, and the earlier question with it only when needed', async () => {
    const history = [
      { role: 'user' as const, content: 'How do pino transports work?' },
      { role: 'assistant' as const, content: 'They run in a worker [1].' },
    ];
    const searched: string[] = [];
    const search = async (query: string) => {
      searched.push(query);
      return searchResult([], { answerability: verdict(query.startsWith('can I') ? 0.3 : 0.9, [3]) });
    };
    const followUp = await searchFollowUp('can I write one in TypeScript, and is it fast?', history, search);
    expect(followUp.reason).toBe('refers-back');
    expect(followUp.query).toBe(
      'How do pino transports work? can I write one in TypeScript, and is it fast?',
    );
    expect(searched).toHaveLength(2);
    searched.length = 0;
    const alone = await searchFollowUp('Which headers does helmet set?', history, search);
    expect([alone.reason, alone.query, searched]).toEqual([
      'stands-alone',
      'Which headers does helmet set?',
      ['Which headers does helmet set?'],
    ]);
  });
});

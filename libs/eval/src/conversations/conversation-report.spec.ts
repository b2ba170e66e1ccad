import { DEFAULT_FOLLOW_UP_RULE } from '@lumina/rag';
import { bestRule, candidateRules, chatFigures, ruleFigures } from './conversation-report';
import type { ConversationMeasure, SearchOutcome } from './conversation-report';

const hit = (top: string, goldRank: number | null = null): SearchOutcome => ({
  top,
  refused: false,
  goldRank,
});

const measure = (
  id: string,
  kind: ConversationMeasure['kind'],
  refersBack: boolean,
  answerability: number,
  alone: SearchOutcome,
  withContext: SearchOutcome,
): ConversationMeasure => ({
  id,
  kind,
  inScope: true,
  evidence: { refersBack, terms: [{ df: 1, idf: 3 }], fallbackTerms: 1, answerability },
  alone,
  withContext,
  chat: { ...alone, reason: 'stands-alone', query: id },
});

const measures = [
  // A switch naming its own topic: the earlier question would pull another passage on top.
  measure('s1', 'switch', false, 0.9, hit('a'), hit('x')),
  // A switch with a dummy "it" that its own search answers well.
  measure('s2', 'switch', true, 0.8, hit('b'), hit('y')),
  // A follow-up that points back and finds nothing alone.
  measure('f1', 'follow-up', true, 0.2, hit('c'), hit('d', 1)),
];

describe('multi-turn figures', () => {
  it('compares always, never and a rule on switches and follow-ups', () => {
    const always = ruleFigures(measures, 'always');
    expect([always.switchesKeepTop.count, always.followUpsReach.count]).toEqual([0, 1]);
    const never = ruleFigures(measures, 'never');
    expect([never.switchesKeepTop.count, never.followUpsReach.count]).toEqual([2, 0]);
    const rule = ruleFigures(measures, { ...DEFAULT_FOLLOW_UP_RULE, referenceBelow: 0.7 });
    expect([rule.switchesKeepTop.count, rule.followUpsReach.count, rule.contextAdded.count]).toEqual([
      2, 1, 1,
    ]);
    expect(chatFigures(measures).contextAdded.count).toBe(0);
  });

  it('picks the rule reaching the most follow-ups among those keeping the switches', () => {
    const best = bestRule(measures, candidateRules(DEFAULT_FOLLOW_UP_RULE));
    expect(best?.figures.followUpsReach.count).toBe(1);
    expect(best?.figures.switchesKeepTop.count).toBe(2);
    expect(best?.figures.contextAdded.count).toBe(1);
  });
});

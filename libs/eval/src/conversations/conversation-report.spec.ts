import { DEFAULT_FOLLOW_UP_RULE } from '@lumina/rag';
import type { FollowUpReason, FollowUpRule } from '@lumina/rag';
import {
  bestRule,
  candidateRules,
  chatFigures,
  ruleFigures,
  ruleKey,
  switchAnswersUnchanged,
} from './conversation-report';
import type { ConversationMeasure, SearchOutcome } from './conversation-report';

const hit = (top: string, goldRank: number | null = null): SearchOutcome => ({
  top,
  refused: false,
  goldRank,
});

const leading: FollowUpRule = { ...DEFAULT_FOLLOW_UP_RULE, leadMargin: 0 };
const never: FollowUpRule = { ...DEFAULT_FOLLOW_UP_RULE, leadMargin: 2 };

/** A measure whose candidate rules all give `underRule` (reason `reason`), except `leading`. */
const measure = (
  id: string,
  kind: ConversationMeasure['kind'],
  refersBack: boolean,
  alone: SearchOutcome,
  withContext: SearchOutcome,
  underLeading: SearchOutcome & { reason: FollowUpReason },
  underOthers: SearchOutcome & { reason: FollowUpReason },
): ConversationMeasure => ({
  id,
  kind,
  inScope: true,
  evidence: { refersBack, answerability: 0.5, withEarlier: 0.5 },
  alone,
  withContext,
  withCited: null,
  rules: Object.fromEntries(
    candidateRules(DEFAULT_FOLLOW_UP_RULE).map((rule) => [
      ruleKey(rule),
      ruleKey(rule) === ruleKey(leading) ? underLeading : underOthers,
    ]),
  ),
  chat: { ...alone, reason: 'stands-alone', query: id },
  answerUnchanged: !refersBack,
});

const measures = [
  // A switch naming its own topic: never searched with the earlier question.
  measure(
    's1',
    'switch',
    false,
    hit('a'),
    hit('x'),
    { ...hit('a'), reason: 'stands-alone' },
    {
      ...hit('a'),
      reason: 'stands-alone',
    },
  ),
  // A switch with a dummy "it": the earlier question leading would pull another passage on top.
  measure(
    's2',
    'switch',
    true,
    hit('b'),
    hit('y'),
    { ...hit('y'), reason: 'refers-back' },
    {
      ...hit('b'),
      reason: 'alone-leads',
    },
  ),
  // A follow-up that points back and finds the gold passage only with the earlier question.
  measure(
    'f1',
    'follow-up',
    true,
    hit('c'),
    hit('d', 1),
    { ...hit('d', 1), reason: 'refers-back' },
    {
      ...hit('c', 4),
      reason: 'alone-leads',
    },
  ),
];

describe('multi-turn figures', () => {
  it('compares always, never and the rules on switches and follow-ups', () => {
    const always = ruleFigures(measures, 'always');
    expect([always.switchesKeepTop.count, always.followUpsReach.count]).toEqual([0, 1]);
    const none = ruleFigures(measures, 'never');
    expect([none.switchesKeepTop.count, none.followUpsReach.count]).toEqual([2, 0]);
    const lead = ruleFigures(measures, leading);
    expect([lead.switchesKeepTop.count, lead.followUpsReach.count, lead.followUpsTop1.count]).toEqual([
      1, 1, 1,
    ]);
    const fill = ruleFigures(measures, never);
    expect([fill.switchesKeepTop.count, fill.followUpsReach.count, fill.contextAdded.count]).toEqual([
      2, 1, 2,
    ]);
    expect(chatFigures(measures).contextAdded.count).toBe(0);
    // Of the two switches, the one with a dummy "it" got another answer.
    expect([switchAnswersUnchanged(measures).count, switchAnswersUnchanged(measures).items]).toEqual([1, 2]);
    expect(() => ruleFigures(measures, { ...leading, leadPassages: 7 })).toThrow(/not measured/);
    expect(() => ruleFigures(measures, { ...leading, citedTerms: 9 })).toThrow(/not measured/);
  });

  it('compares each lead rule with and without the cited-words search', () => {
    const rules = candidateRules(DEFAULT_FOLLOW_UP_RULE);
    expect(new Set(rules.map(ruleKey)).size).toBe(rules.length);
    expect(new Set(rules.map((rule) => rule.citedTerms))).toEqual(new Set([0, 1, 2, 3, 4]));
    expect(rules.map(ruleKey)).toContain(ruleKey(DEFAULT_FOLLOW_UP_RULE));
  });

  it('picks the rule reaching the most follow-ups among those keeping the switches', () => {
    const best = bestRule(measures, candidateRules(DEFAULT_FOLLOW_UP_RULE));
    expect(best?.rule.leadMargin).not.toBe(0);
    // Every rule but `leading` gives the same figures: the tie goes to no cited words added.
    expect(best?.rule.citedTerms).toBe(0);
    expect(best?.figures.followUpsReach.count).toBe(1);
    expect(best?.figures.switchesKeepTop.count).toBe(2);
  });
});

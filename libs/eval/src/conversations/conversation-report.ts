import type { FollowUpEvidence, FollowUpReason, FollowUpRule } from '@lumina/rag';
import type { RateInterval } from '@lumina/shared';
import { rateInterval } from '../answers/answer-metrics';

/**
 * One conversation of the multi-turn gold set: an earlier question, then the one measured. A `switch`
 * changes topic (the second question stands alone); a `follow-up` needs the earlier turn.
 */
export interface ConversationCase {
  id: string;
  kind: 'switch' | 'follow-up';
  split: string;
  turns: [string, string];
  /** The gold question the second turn stands for (its document and quote in questions.jsonl). */
  question: string;
}

/** The second turn searched alone, with the earlier turn added and with the earlier answer's cited words, and what each found. */
export interface ConversationMeasure {
  id: string;
  kind: ConversationCase['kind'];
  /** The second question is in scope (out-of-scope switches measure refusals). */
  inScope: boolean;
  /** What the follow-up rule reads: the reference, and both searches' P(answerable). */
  evidence: FollowUpEvidence;
  alone: SearchOutcome;
  withContext: SearchOutcome;
  /**
   * The question with the earlier answer's cited words (the default rule's count); null when it was not
   * searched (the question does not point back, or the earlier answer cited nothing).
   */
  withCited: SearchOutcome | null;
  /** What each candidate rule (keyed by `ruleKey`) would have given: the searches combined by it. */
  rules: Record<string, RuleOutcome>;
  /** What the chat's own code searched (searchFollowUp with the default rule). */
  chat: RuleOutcome & { query: string };
  /**
   * The chat's answer to the second question (generateAnswer with the conversation's history) is word for
   * word the answer it gets asked alone.
   */
  answerUnchanged: boolean;
}

export type RuleOutcome = SearchOutcome & { reason: FollowUpReason };

/** A rule's key in `ConversationMeasure.rules`. */
export function ruleKey(rule: FollowUpRule): string {
  return `lead+${rule.leadMargin}/${rule.leadPassages}/${rule.turns}/cited${rule.citedTerms}`;
}

export interface SearchOutcome {
  /** The best passage's chunk id; null when nothing was found. */
  top: string | null;
  refused: boolean;
  /** Rank (1-based) of the first passage holding the gold quote among those returned; null when none. */
  goldRank: number | null;
}

export interface ConversationFigures {
  /** In-scope switches whose top passage is the one the question gets alone. */
  switchesKeepTop: RateInterval;
  /** Out-of-scope switches refused as they are alone. */
  switchesKeepRefusal: RateInterval;
  /** Follow-ups with a passage holding the gold quote among the returned passages. */
  followUpsReach: RateInterval;
  /** Follow-ups whose best passage holds the gold quote. */
  followUpsTop1: RateInterval;
  /** Conversations searched with the earlier turn too (it led, or its passages filled in). */
  contextAdded: RateInterval;
}

/** Topic switches (in and out of scope) whose chat answer is word for word their answer asked alone. */
export function switchAnswersUnchanged(measures: readonly ConversationMeasure[]): RateInterval {
  const switches = measures.filter((m) => m.kind === 'switch');
  return rateInterval(switches.filter((m) => m.answerUnchanged).length, switches.length);
}

/** The outcome a rule would give (recorded with the measure), or always / never the earlier turn. */
function outcomeUnder(measure: ConversationMeasure, rule: FollowUpRule | 'always' | 'never'): SearchOutcome {
  if (rule === 'always') return measure.withContext;
  if (rule === 'never') return measure.alone;
  const outcome = measure.rules[ruleKey(rule)];
  if (!outcome) throw new Error(`conversation ${measure.id}: rule ${ruleKey(rule)} was not measured`);
  return outcome;
}

/** The figures of the set's conversations searched the way `pick` says. */
export function conversationFigures(
  measures: readonly ConversationMeasure[],
  pick: (measure: ConversationMeasure) => SearchOutcome,
  added: (measure: ConversationMeasure) => boolean = (m) => pick(m) !== m.alone,
): ConversationFigures {
  const inSwitches = measures.filter((m) => m.kind === 'switch' && m.inScope);
  const outSwitches = measures.filter((m) => m.kind === 'switch' && !m.inScope);
  const followUps = measures.filter((m) => m.kind === 'follow-up');
  const count = <T>(list: readonly T[], test: (item: T) => boolean) => list.filter(test).length;
  return {
    switchesKeepTop: rateInterval(
      count(inSwitches, (m) => pick(m).top === m.alone.top),
      inSwitches.length,
    ),
    switchesKeepRefusal: rateInterval(
      count(outSwitches, (m) => pick(m).refused === m.alone.refused),
      outSwitches.length,
    ),
    followUpsReach: rateInterval(
      count(followUps, (m) => pick(m).goldRank !== null),
      followUps.length,
    ),
    followUpsTop1: rateInterval(
      count(followUps, (m) => pick(m).goldRank === 1),
      followUps.length,
    ),
    contextAdded: rateInterval(count(measures, added), measures.length),
  };
}

/** The figures a rule gives (or always / never adding the earlier turn). */
export function ruleFigures(
  measures: readonly ConversationMeasure[],
  rule: FollowUpRule | 'always' | 'never',
): ConversationFigures {
  if (rule === 'always' || rule === 'never')
    return conversationFigures(measures, (m) => outcomeUnder(m, rule));
  return conversationFigures(
    measures,
    (m) => outcomeUnder(m, rule),
    (m) => m.rules[ruleKey(rule)]?.reason !== 'stands-alone',
  );
}

/** The figures of what the chat's own code searched. */
export function chatFigures(measures: readonly ConversationMeasure[]): ConversationFigures {
  return conversationFigures(
    measures,
    (m) => m.chat,
    (m) => m.chat.reason !== 'stands-alone',
  );
}

/**
 * The rules the measurement compares: how much more answerable the search with the earlier question must
 * be to lead (2: never), how many leading passages stay on top (6: the other searches never fill in), and
 * how many of the earlier answer's cited words the third search adds (0: no third search).
 */
export function candidateRules(base: FollowUpRule): FollowUpRule[] {
  const rules: FollowUpRule[] = [];
  for (const citedTerms of [0, 1, 2, 3, 4])
    for (const leadMargin of [-2, 0, 0.05, 0.1, 0.2, 2])
      for (const leadPassages of [2, 3, 4, 6]) rules.push({ ...base, leadMargin, leadPassages, citedTerms });
  return rules;
}

/**
 * The best rule: the most follow-ups reached among rules keeping ≥ `minSwitchKeep` of the switches'
 * top passages and refusals; ties go to more switches kept, then to more follow-ups on top, then to more
 * passages of the leading search kept on top, then to fewer cited words added.
 */
export function bestRule(
  measures: readonly ConversationMeasure[],
  rules: readonly FollowUpRule[],
  minSwitchKeep = 0.95,
): { rule: FollowUpRule; figures: ConversationFigures } | null {
  let best: { rule: FollowUpRule; figures: ConversationFigures } | null = null;
  for (const rule of rules) {
    const figures = ruleFigures(measures, rule);
    const keeps =
      figures.switchesKeepTop.rate >= minSwitchKeep &&
      (figures.switchesKeepRefusal.items === 0 || figures.switchesKeepRefusal.rate >= minSwitchKeep);
    if (!keeps) continue;
    const order = (r: FollowUpRule, f: ConversationFigures) => [
      f.followUpsReach.rate,
      f.switchesKeepTop.rate,
      f.followUpsTop1.rate,
      r.leadPassages,
      -r.citedTerms,
    ];
    const better = !best || compareDescending(order(rule, figures), order(best.rule, best.figures)) < 0;
    if (better) best = { rule, figures };
  }
  return best && { rule: best.rule, figures: best.figures };
}

/** Negative when `a` ranks first (larger values first, element by element). */
function compareDescending(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return b[i]! - a[i]!;
  return 0;
}

const pct = (r: RateInterval) =>
  `${(r.rate * 100).toFixed(1)}% [${(r.low * 100).toFixed(1)}, ${(r.high * 100).toFixed(1)}] (${r.count}/${r.items})`;

export const formatRate = pct;

export function formatConversationFigures(label: string, f: ConversationFigures): string {
  return [
    label,
    `  switches keep the alone top passage   ${pct(f.switchesKeepTop)}`,
    `  out-of-scope switches keep refusal    ${pct(f.switchesKeepRefusal)}`,
    `  follow-ups reach the gold passage     ${pct(f.followUpsReach)}`,
    `  follow-ups with it on top             ${pct(f.followUpsTop1)}`,
    `  searched with the earlier turn too    ${pct(f.contextAdded)}`,
  ].join('\n');
}

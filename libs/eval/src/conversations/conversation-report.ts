import { followUpReason, followUpSignals } from '@lumina/rag';
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

/** The second turn searched alone and with the earlier turn added, and what each found. */
export interface ConversationMeasure {
  id: string;
  kind: ConversationCase['kind'];
  /** The second question is in scope (out-of-scope switches measure refusals). */
  inScope: boolean;
  /** The second question's own search, as the follow-up rule reads it. */
  evidence: FollowUpEvidence;
  alone: SearchOutcome;
  withContext: SearchOutcome;
  /** What the chat's own code searched (searchFollowUp with the default rule). */
  chat: SearchOutcome & { reason: FollowUpReason; query: string };
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
  /** Conversations whose earlier turn was added. */
  contextAdded: RateInterval;
}

/** The outcome a rule would give: alone when the question stands alone, else with the earlier turn. */
function outcomeUnder(measure: ConversationMeasure, rule: FollowUpRule | 'always' | 'never'): SearchOutcome {
  if (rule === 'always') return measure.withContext;
  if (rule === 'never') return measure.alone;
  const signals = followUpSignals(measure.evidence, rule.minSalientIdf);
  return followUpReason(signals, rule) === 'stands-alone' ? measure.alone : measure.withContext;
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
  return conversationFigures(measures, (m) => outcomeUnder(m, rule));
}

/** The figures of what the chat's own code searched. */
export function chatFigures(measures: readonly ConversationMeasure[]): ConversationFigures {
  return conversationFigures(
    measures,
    (m) => m.chat,
    (m) => m.chat.reason !== 'stands-alone',
  );
}

/** The rules the measurement compares: each reason on its own and together, at a few thresholds. */
export function candidateRules(base: FollowUpRule): FollowUpRule[] {
  const rules: FollowUpRule[] = [];
  for (const referenceBelow of [0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 2])
    for (const maxSalientTerms of [-1, 0, 1, 2])
      for (const minAnswerability of [0, 0.1, 0.2, 0.3, 0.4])
        for (const minSalientIdf of [1, 2, 3])
          rules.push({ ...base, referenceBelow, maxSalientTerms, minAnswerability, minSalientIdf });
  return rules;
}

/**
 * The best rule: the most follow-ups reached among rules keeping ≥ `minSwitchKeep` of the switches'
 * top passages and refusals; ties go to more switches kept, then to fewer reasons.
 */
export function bestRule(
  measures: readonly ConversationMeasure[],
  rules: readonly FollowUpRule[],
  minSwitchKeep = 0.95,
): { rule: FollowUpRule; figures: ConversationFigures } | null {
  let best: { rule: FollowUpRule; figures: ConversationFigures; parts: number } | null = null;
  for (const rule of rules) {
    const figures = ruleFigures(measures, rule);
    const keeps =
      figures.switchesKeepTop.rate >= minSwitchKeep &&
      (figures.switchesKeepRefusal.items === 0 || figures.switchesKeepRefusal.rate >= minSwitchKeep);
    if (!keeps) continue;
    const parts =
      Number(rule.referenceBelow > 0) + Number(rule.maxSalientTerms >= 0) + Number(rule.minAnswerability > 0);
    const better =
      !best ||
      figures.followUpsReach.rate > best.figures.followUpsReach.rate ||
      (figures.followUpsReach.rate === best.figures.followUpsReach.rate &&
        (figures.switchesKeepTop.rate > best.figures.switchesKeepTop.rate ||
          (figures.switchesKeepTop.rate === best.figures.switchesKeepTop.rate && parts < best.parts)));
    if (better) best = { rule, figures, parts };
  }
  return best && { rule: best.rule, figures: best.figures };
}

const pct = (r: RateInterval) =>
  `${(r.rate * 100).toFixed(1)}% [${(r.low * 100).toFixed(1)}, ${(r.high * 100).toFixed(1)}] (${r.count}/${r.items})`;

export function formatConversationFigures(label: string, f: ConversationFigures): string {
  return [
    label,
    `  switches keep the alone top passage   ${pct(f.switchesKeepTop)}`,
    `  out-of-scope switches keep refusal    ${pct(f.switchesKeepRefusal)}`,
    `  follow-ups reach the gold passage     ${pct(f.followUpsReach)}`,
    `  follow-ups with it on top             ${pct(f.followUpsTop1)}`,
    `  earlier turn added                    ${pct(f.contextAdded)}`,
  ].join('\n');
}

import { FEEDBACK_REASONS } from '@lumina/shared';
import type { FeedbackDay, FeedbackEntry, FeedbackReason } from '@lumina/shared';

/** What each reason says to the person choosing it. */
export const REASON_LABELS: Record<FeedbackReason, string> = {
  wrong: 'Wrong',
  incomplete: 'Incomplete',
  wrong_citation: 'A citation does not say that',
  should_have_refused: "Should have said the documents don't say",
  wrongly_refused: 'The documents do answer this',
  outdated: 'Outdated',
};

/**
 * The reasons that fit an answer: a refusal cannot have answered what it should have refused, and an
 * answer cannot be a wrong refusal (the server refuses those pairs too).
 */
export function reasonsFor(notFound: boolean): FeedbackReason[] {
  return FEEDBACK_REASONS.filter((reason) =>
    notFound ? reason !== 'should_have_refused' : reason !== 'wrongly_refused',
  );
}

/** Out of scope when it should have refused, in scope when it refused wrongly; else the reviewer says. */
export function defaultScope(reasons: readonly FeedbackReason[]): boolean | null {
  if (reasons.includes('should_have_refused')) return false;
  if (reasons.includes('wrongly_refused')) return true;
  return null;
}

/** "Rated down: Wrong, Incomplete" for a rating as its person sees it afterwards. */
export function ratingSummary(rating: 'up' | 'down', reasons: readonly FeedbackReason[]): string {
  if (rating === 'up') return 'You found this answer helpful.';
  const named = reasons.map((reason) => REASON_LABELS[reason]);
  return named.length ? `You rated this answer down: ${named.join(', ')}.` : 'You rated this answer down.';
}

export interface DailyPoint {
  day: string;
  /** "12-03" for the axis. */
  label: string;
  answers: number;
  notFound: number;
  /** Share of the day's answers that were refusals; null on a day without answers. */
  notFoundRate: number | null;
  /** Share of the day's ratings that were down; null on a day without ratings. */
  downRate: number | null;
  up: number;
  down: number;
}

/** The chart's points: rates where a day has something to divide by, gaps elsewhere. */
export function dailyPoints(days: readonly FeedbackDay[]): DailyPoint[] {
  return days.map((day) => ({
    day: day.day,
    label: day.day.slice(5),
    answers: day.answers,
    notFound: day.notFound,
    notFoundRate: day.answers > 0 ? day.notFound / day.answers : null,
    downRate: day.up + day.down > 0 ? day.down / (day.up + day.down) : null,
    up: day.up,
    down: day.down,
  }));
}

/** Totals over the window, for the line above the chart. */
export function dailyTotals(days: readonly FeedbackDay[]) {
  const sum = (pick: (day: FeedbackDay) => number) => days.reduce((total, day) => total + pick(day), 0);
  const answers = sum((day) => day.answers);
  const notFound = sum((day) => day.notFound);
  const up = sum((day) => day.up);
  const down = sum((day) => day.down);
  return {
    answers,
    notFound,
    up,
    down,
    notFoundRate: answers ? notFound / answers : null,
    downRate: up + down ? down / (up + down) : null,
  };
}

/** "42%" or "–" when there is nothing to divide by. */
export function percent(rate: number | null): string {
  return rate === null ? '–' : `${Math.round(rate * 100)}%`;
}

/** The first characters of a text on one line. */
export function excerpt(text: string, max = 240): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Whether the question was searched as written (no follow-up rewrite worth showing). */
export function searchedAsAsked(entry: FeedbackEntry): boolean {
  return !entry.standaloneQuery || entry.standaloneQuery.trim() === (entry.question ?? '').trim();
}

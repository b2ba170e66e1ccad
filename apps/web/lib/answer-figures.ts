import type { AnswerMetrics, EvalItemResult, RateInterval } from '@lumina/shared';

/**
 * An evaluation run's answer figures as rows a page can show: false refusals, false answers, the
 * AUC of the answerability score and answer support, each with its interval and which way is better;
 * and two runs side by side with their differences.
 */
export type AnswerFigureKey = 'inScopeRefused' | 'outOfScopeAnswered' | 'auc' | 'support';

export interface AnswerFigure {
  key: AnswerFigureKey;
  label: string;
  hint: string;
  value: number | null;
  /** "5.0%" or "0.912"; "—" when not measured. */
  text: string;
  /** "1 of 20 · 95% CI 0.9–23.6%" for a rate; null otherwise. */
  detail: string | null;
  lowerIsBetter: boolean;
}

export function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

function rateFigure(
  key: AnswerFigureKey,
  label: string,
  hint: string,
  rate: RateInterval,
  lowerIsBetter: boolean,
): AnswerFigure {
  if (rate.items === 0)
    return { key, label, hint, value: null, text: '—', detail: 'no items', lowerIsBetter };
  return {
    key,
    label,
    hint,
    value: rate.rate,
    text: percent(rate.rate),
    detail: `${rate.count} of ${rate.items} · 95% CI ${(rate.low * 100).toFixed(1)}–${percent(rate.high)}`,
    lowerIsBetter,
  };
}

export function answerFigures(answers: AnswerMetrics): AnswerFigure[] {
  return [
    rateFigure(
      'inScopeRefused',
      'In-scope refused',
      'Questions the documents answer that were refused (false refusals).',
      answers.inScopeRefused,
      true,
    ),
    rateFigure(
      'outOfScopeAnswered',
      'Out-of-scope answered',
      "Questions the documents don't answer that were answered anyway (false answers).",
      answers.outOfScopeAnswered,
      true,
    ),
    {
      key: 'auc',
      label: 'AUC',
      hint: 'How well the answerability score separates the two kinds of question (1 is perfect, 0.5 chance).',
      value: answers.auc,
      text: answers.auc === null ? '—' : answers.auc.toFixed(3),
      detail: answers.auc === null ? 'needs both kinds of question' : null,
      lowerIsBetter: false,
    },
    rateFigure(
      'support',
      'Answer support',
      'Answered in-scope questions whose answer cites a gold source and quotes the gold answer.',
      answers.support,
      false,
    ),
  ];
}

export interface AnswerFigureComparison {
  key: AnswerFigureKey;
  label: string;
  a: AnswerFigure | null;
  b: AnswerFigure | null;
  /** B − A, when both were measured. */
  difference: number | null;
  /** 'better' / 'worse' for B against A, 'same', or null when not comparable. */
  verdict: 'better' | 'worse' | 'same' | null;
}

export function compareAnswerFigures(
  a: AnswerMetrics | null,
  b: AnswerMetrics | null,
): AnswerFigureComparison[] {
  const left = a ? answerFigures(a) : null;
  const right = b ? answerFigures(b) : null;
  const template = left ?? right;
  if (!template) return [];
  return template.map((figure, index) => {
    const x = left?.[index] ?? null;
    const y = right?.[index] ?? null;
    const difference = x && y && x.value !== null && y.value !== null ? y.value - x.value : null;
    const verdict =
      difference === null
        ? null
        : Math.abs(difference) < 1e-9
          ? 'same'
          : difference < 0 === figure.lowerIsBetter
            ? 'better'
            : 'worse';
    return { key: figure.key, label: figure.label, a: x, b: y, difference, verdict };
  });
}

/** A difference of rates in points ("−5.0 pt"), of the AUC as a number ("+0.021"). */
export function formatDifference(key: AnswerFigureKey, difference: number | null): string {
  if (difference === null) return '—';
  const sign = difference > 0 ? '+' : difference < 0 ? '−' : '±';
  const size = Math.abs(difference);
  return key === 'auc' ? `${sign}${size.toFixed(3)}` : `${sign}${(size * 100).toFixed(1)} pt`;
}

/** What happened to one item: refused or answered, and whether that was right. */
export function itemOutcome(item: Pick<EvalItemResult, 'inScope' | 'refused'>): {
  label: 'refused' | 'answered';
  correct: boolean;
} {
  return { label: item.refused ? 'refused' : 'answered', correct: item.inScope !== item.refused };
}

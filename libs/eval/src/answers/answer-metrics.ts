import type { AnswerMetrics, RateInterval } from '@lumina/shared';
import { rocAuc } from '@lumina/rag';
import { round4 } from '../stats/figures';
import { wilsonInterval } from '../stats/wilson-interval';
import type { CitationCheck } from './citation-precision';

/** One evaluated question: was it refused, how answerable the model judged it, did the answer hold up. */
export interface AnsweredItem {
  inScope: boolean;
  refused: boolean;
  /** The answerability score (P(answerable)); null when no model decided. */
  score: number | null;
  /** Answered in-scope items with gold sources: the answer cites one (and quotes the gold answer); else null. */
  supported: boolean | null;
  /** The answer's markers checked against the passages they open; null or absent when not answered. */
  citations?: CitationCheck | null;
}

export function rateInterval(count: number, items: number): RateInterval {
  const interval = wilsonInterval(count, items);
  return {
    items,
    count,
    rate: round4(interval.estimate),
    low: round4(interval.low),
    high: round4(interval.high),
  };
}

/**
 * Citation precision over answers: the markers whose passage holds the quote they close, over all the
 * markers written (pooled over answers; Wilson interval over markers).
 */
export function citationPrecision(checks: readonly (CitationCheck | null | undefined)[]): RateInterval {
  let markers = 0;
  let precise = 0;
  for (const check of checks) {
    if (!check) continue;
    markers += check.markers;
    precise += check.precise;
  }
  return rateInterval(precise, markers);
}

/** False refusals, false answers (Wilson intervals), AUC of the score, answer support and citation precision. */
export function answerMetrics(
  items: readonly AnsweredItem[],
  modelVersion: string | null,
  generator: string | null,
): AnswerMetrics {
  const inScope = items.filter((item) => item.inScope);
  const outOfScope = items.filter((item) => !item.inScope);
  const judged = inScope.filter((item) => item.supported !== null);
  const scored = (list: readonly AnsweredItem[]) =>
    list.flatMap((item) => (item.score === null ? [] : [item.score]));
  const auc = rocAuc(scored(inScope), scored(outOfScope));
  return {
    inScopeRefused: rateInterval(inScope.filter((item) => item.refused).length, inScope.length),
    outOfScopeAnswered: rateInterval(outOfScope.filter((item) => !item.refused).length, outOfScope.length),
    auc: auc === null ? null : round4(auc),
    support: rateInterval(judged.filter((item) => item.supported).length, judged.length),
    citationPrecision: citationPrecision(items.map((item) => item.citations)),
    modelVersion,
    generator,
  };
}

function normalise(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/\[\d+(?:\s*,\s*\d+)*\]/g, ' ')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/**
 * True when the answer quotes the gold text: at least `minShare` of the gold text's words appear in the
 * answer in the same order as one contiguous run of the answer's words (Markdown, quotes, markers and
 * case ignored). A gold text of a whole paragraph is matched by its best sentence-sized run.
 */
export function quotesGold(answer: string, gold: string, minShare = 0.8): boolean {
  const a = normalise(answer);
  const g = normalise(gold);
  if (g.length === 0) return false;
  // Longest common substring of words (dynamic programming over word positions).
  let best = 0;
  let previous = new Array<number>(g.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(g.length + 1).fill(0);
    for (let j = 1; j <= g.length; j++) {
      if (a[i - 1] === g[j - 1]) {
        current[j] = previous[j - 1] + 1;
        if (current[j] > best) best = current[j];
      }
    }
    previous = current;
  }
  return best / g.length >= minShare;
}

/**
 * Answer support of one answered in-scope item: the answer cites a gold source (a cited chunk or its
 * document is among the expected ones) and, when a gold quote is given, quotes it.
 */
export function answerSupported(input: {
  citedChunkIds: readonly string[];
  citedDocumentIds: readonly string[];
  goldIds: ReadonlySet<string>;
  answer: string;
  goldQuote: string | null;
}): boolean {
  const cites =
    input.citedChunkIds.some((id) => input.goldIds.has(id)) ||
    input.citedDocumentIds.some((id) => input.goldIds.has(id));
  if (!cites) return false;
  return input.goldQuote ? quotesGold(input.answer, input.goldQuote) : true;
}

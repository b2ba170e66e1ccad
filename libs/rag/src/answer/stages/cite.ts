import type { RetrievedPassage } from '@lumina/shared';
import { resolveCitations } from '../citation-markers';
import type { AnswerOutcome } from './answer-run';
import { startsWithNotFound } from './decide';

/**
 * The cite stage for a model's answer: its clean text, whether it refused, the citations its valid
 * markers name and every marker dropped (by the sanitiser or here). No citation is invented for an
 * answer that gives none: a complete one is flagged `uncited`, in the message and the trace.
 */
export function citeModelAnswer(
  outcome: AnswerOutcome,
  text: string,
  sanitizerDropped: readonly number[],
  complete: boolean,
): void {
  outcome.text = text;
  outcome.notFound = startsWithNotFound(text);
  const { citations, dropped } = resolveCitations(text, citable(outcome.passages));
  outcome.citations = citations;
  outcome.droppedMarkers = [...new Set([...sanitizerDropped, ...dropped])];
  outcome.uncited = complete && !outcome.notFound && citations.length === 0;
}

/**
 * The cite stage for a quoted answer: the cited passages are numbered 1, 2, 3… in citing order, and the
 * stored passages carry the numbers the answer writes, so the trace's [n] is the answer's [n].
 */
export function citeQuotedAnswer(outcome: AnswerOutcome, quoted: string): void {
  const { text, passages } = renumberCitations(quoted, outcome.passages);
  outcome.text = text;
  outcome.passages = passages;
  outcome.citations = resolveCitations(text, citable(passages)).citations;
}

/**
 * Rewrite an answer's markers so the cited passages are numbered contiguously in citing order; returns
 * the text and the passages renumbered to match (uncited ones keep numbers after the cited ones). The
 * passages stay in retrieval order: a marker names the passage whose `marker` it is, not a position.
 */
export function renumberCitations(
  text: string,
  passages: readonly RetrievedPassage[],
): { text: string; passages: RetrievedPassage[] } {
  const order: number[] = [];
  for (const match of text.matchAll(/\[(\d+)\]/g)) {
    const marker = Number(match[1]);
    if (!order.includes(marker) && passages.some((p) => p.marker === marker)) order.push(marker);
  }
  const next = new Map(order.map((marker, i) => [marker, i + 1]));
  let free = order.length;
  const renumbered = passages.map((p) => ({ ...p, marker: next.get(p.marker) ?? ++free }));
  return {
    text: text.replace(/\[(\d+)\]/g, (whole, n: string) =>
      next.has(Number(n)) ? `[${next.get(Number(n))}]` : whole,
    ),
    passages: renumbered,
  };
}

function citable(passages: readonly RetrievedPassage[]) {
  return passages.map((p) => ({
    marker: p.marker,
    chunkId: p.chunkId,
    documentId: p.documentId,
    title: p.title,
    headingPath: p.headingPath,
    anchor: p.anchor,
    spanStart: p.span.start,
    spanEnd: p.span.end,
    ...(p.pages ? { pages: p.pages } : {}),
  }));
}

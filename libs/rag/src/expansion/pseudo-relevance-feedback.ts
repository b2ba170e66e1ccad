import { contentTokens } from './tokenize';

export interface FeedbackDocument {
  text: string;
  /** The first-pass score (e.g. BM25) of this document for the query. */
  score: number;
}

/**
 * RM3-style expansion terms: P(t|R) ≈ Σ_d P(t|d) · w(d), with w(d) the first-pass scores normalised
 * to sum to 1 over the feedback documents. Terms already in the query are left out.
 */
export function feedbackTerms(query: string, documents: FeedbackDocument[], count: number): string[] {
  if (documents.length === 0 || count <= 0) return [];
  const queryTerms = new Set(contentTokens(query));
  const positive = documents.map((doc) => Math.max(doc.score, 0));
  const total = positive.reduce((sum, value) => sum + value, 0);
  const weights =
    total > 0 ? positive.map((value) => value / total) : documents.map(() => 1 / documents.length);
  const relevance = new Map<string, number>();
  documents.forEach((doc, index) => {
    const tokens = contentTokens(doc.text);
    if (tokens.length === 0) return;
    const counts = new Map<string, number>();
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [term, tf] of counts) {
      relevance.set(term, (relevance.get(term) ?? 0) + (tf / tokens.length) * weights[index]);
    }
  });
  return [...relevance.entries()]
    .filter(([term]) => !queryTerms.has(term))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, count)
    .map(([term]) => term);
}

/**
 * Offline multi-query expansion: `count` variants, each the original query plus its own slice of the
 * feedback terms (so the variants differ from each other, as LLM rewrites would).
 */
export function feedbackVariants(
  query: string,
  documents: FeedbackDocument[],
  count: number,
  termsPerVariant = 4,
): string[] {
  const terms = feedbackTerms(query, documents, count * termsPerVariant);
  const variants: string[] = [];
  for (let i = 0; i < count; i++) {
    const slice = terms.slice(i * termsPerVariant, (i + 1) * termsPerVariant);
    if (slice.length === 0) break;
    variants.push(`${query} ${slice.join(' ')}`);
  }
  return variants;
}

/** Offline HyDE: the top first-pass passages stand in for the hypothetical answer document. */
export function feedbackPseudoDocument(documents: FeedbackDocument[], passages = 3, maxChars = 1500): string {
  return documents
    .slice(0, passages)
    .map((doc) => doc.text)
    .join('\n\n')
    .slice(0, maxChars);
}

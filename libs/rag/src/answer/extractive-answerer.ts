import { splitSentences } from '../chunking/sentence-splitter';
import { l2Normalize } from '../dense/l2-normalize';
import { contentTokens } from '../expansion/tokenize';
import type { EmbeddingProvider } from '../ports/embedding-provider.port';

/** Version of the extractive answerer's rules (recorded in traces like a prompt version). */
export const EXTRACTIVE_ANSWERER_VERSION = 'extractive-v1';

export interface ExtractiveOptions {
  /** Most sentences quoted. */
  maxSentences: number;
  /** Sentences scoring under this are never quoted; when none reaches it the answerer refuses. */
  minSimilarity: number;
  /**
   * Weight of word overlap in a sentence's score: cosine similarity + lexicalWeight × the share of the
   * question's content words found in the sentence or its passage's title and headings.
   */
  lexicalWeight: number;
  /**
   * Sentences less similar than `relativeFloor` × the best one are left out, so a weak second
   * sentence does not pad a strong first one.
   */
  relativeFloor: number;
  /** Sentences shorter than this many words carry no answer ("See below."). */
  minWords: number;
  /** Longer sentences are cut (with an ellipsis) when quoted. */
  maxSentenceChars: number;
}

/**
 * Chosen on the local USE-lite embedder (sentences embedded with their title and headings): related
 * question/sentence pairs score about 0.25–0.5, unrelated ones under 0.17.
 */
export const DEFAULT_EXTRACTIVE_OPTIONS: Readonly<ExtractiveOptions> = Object.freeze({
  maxSentences: 3,
  minSimilarity: 0.22,
  lexicalWeight: 0.15,
  relativeFloor: 0.75,
  minWords: 3,
  maxSentenceChars: 400,
});

export interface ExtractivePassage {
  /** The passage's citation marker (1-based position in the retrieval list). */
  marker: number;
  text: string;
  /** Where the passage sits, e.g. "Database runbook › Failover": embedded with each sentence. */
  context?: string;
}

export interface CandidateSentence {
  marker: number;
  text: string;
  context: string;
  /** Offsets of the sentence inside its passage's text. */
  start: number;
  end: number;
}

export interface QuotedSentence extends CandidateSentence {
  /** The sentence's score: cosine similarity to the question plus the weighted word overlap. */
  similarity: number;
}

export interface ExtractiveAnswer {
  /** The quoted sentences with their markers, or '' when nothing was similar enough. */
  text: string;
  sentences: QuotedSentence[];
  /** True when no sentence reached `minSimilarity`. */
  notFound: boolean;
  /** The highest score of any sentence (0 without sentences). */
  bestSimilarity: number;
}

/** The passages' sentences worth quoting: headings, list bullets and near-empty lines are skipped. */
export function candidateSentences(
  passages: readonly ExtractivePassage[],
  options: Pick<ExtractiveOptions, 'minWords'> = DEFAULT_EXTRACTIVE_OPTIONS,
): CandidateSentence[] {
  const seen = new Set<string>();
  const candidates: CandidateSentence[] = [];
  for (const passage of passages) {
    for (const span of splitSentences(passage.text)) {
      // A heading line glued to the first sentence is not part of the quote.
      let start = span.start;
      let raw = passage.text.slice(span.start, span.end);
      const heading = /^(?:#{1,6}[^\n]*\n\s*)+/.exec(raw);
      if (heading) {
        start += heading[0].length;
        raw = raw.slice(heading[0].length);
      }
      if (/^#{1,6}\s/.test(raw)) continue;
      const bullet = /^(?:[-*+]\s+|\d{1,3}[.)]\s+)/.exec(raw);
      if (bullet) {
        start += bullet[0].length;
        raw = raw.slice(bullet[0].length);
      }
      const text = raw.replace(/\s+/g, ' ').trim();
      if (text.split(' ').filter((word) => /[\p{L}\p{N}]/u.test(word)).length < options.minWords) continue;
      // Overlapping chunks repeat sentences: quote each once, from the best-ranked passage.
      const key = text.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      candidates.push({ marker: passage.marker, text, context: passage.context ?? '', start, end: span.end });
    }
  }
  return candidates;
}

/**
 * The sentences to quote, given each candidate's similarity to the question: the most similar ones
 * above the thresholds, at most `maxSentences`, then put back in reading order (passage, position).
 */
export function selectSentences(
  candidates: readonly CandidateSentence[],
  similarities: readonly number[],
  options: ExtractiveOptions = DEFAULT_EXTRACTIVE_OPTIONS,
): QuotedSentence[] {
  if (candidates.length !== similarities.length) {
    throw new RangeError(`${candidates.length} sentences but ${similarities.length} similarities`);
  }
  const scored = candidates.map((candidate, i) => ({ ...candidate, similarity: similarities[i] }));
  const best = Math.max(0, ...scored.map((s) => s.similarity));
  if (best < options.minSimilarity) return [];
  const floor = Math.max(options.minSimilarity, best * options.relativeFloor);
  return scored
    .filter((s) => s.similarity >= floor)
    .sort((a, b) => b.similarity - a.similarity || a.marker - b.marker || a.start - b.start)
    .slice(0, options.maxSentences)
    .sort((a, b) => a.marker - b.marker || a.start - b.start);
}

/** One Markdown bullet per quoted sentence, each followed by its passage's marker. */
export function formatExtractiveAnswer(
  sentences: readonly QuotedSentence[],
  maxSentenceChars = DEFAULT_EXTRACTIVE_OPTIONS.maxSentenceChars,
): string {
  return sentences
    .map((s) => {
      const text =
        s.text.length > maxSentenceChars ? `${s.text.slice(0, maxSentenceChars).trimEnd()}…` : s.text;
      return `- “${text}” [${s.marker}]`;
    })
    .join('\n');
}

/** Cosine similarity of two vectors (normalised here, so any embedder works). */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new RangeError(`vectors of ${a.length} and ${b.length} dimensions`);
  const x = l2Normalize([...a]);
  const y = l2Normalize([...b]);
  let dot = 0;
  for (let i = 0; i < x.length; i++) dot += x[i] * y[i];
  return dot;
}

/**
 * The offline answer: the passages' sentences most similar to the question (embedding similarity),
 * quoted with their citation markers. `notFound` when no sentence is similar enough.
 */
export async function extractiveAnswer(
  question: string,
  passages: readonly ExtractivePassage[],
  embedder: EmbeddingProvider,
  options: Partial<ExtractiveOptions> = {},
  signal?: AbortSignal,
): Promise<ExtractiveAnswer> {
  const opts: ExtractiveOptions = { ...DEFAULT_EXTRACTIVE_OPTIONS, ...options };
  const candidates = candidateSentences(passages, opts);
  if (candidates.length === 0) return { text: '', sentences: [], notFound: true, bestSimilarity: 0 };
  const [questionVector, ...sentenceVectors] = await embedder.embed(
    [question, ...candidates.map((c) => (c.context ? `${c.context}: ${c.text}` : c.text))],
    signal,
  );
  const similarities = sentenceVectors.map(
    (vector, i) =>
      cosineSimilarity(questionVector, vector) +
      opts.lexicalWeight * wordOverlap(question, `${candidates[i].context} ${candidates[i].text}`),
  );
  const sentences = selectSentences(candidates, similarities, opts);
  return {
    text: formatExtractiveAnswer(sentences, opts.maxSentenceChars),
    sentences,
    notFound: sentences.length === 0,
    bestSimilarity: Math.max(0, ...similarities),
  };
}

/**
 * Share of the question's content words (stop words removed) that the text contains, compared on
 * their first five letters (a crude stem: "failover" matches "fail", "backups" matches "backup").
 */
export function wordOverlap(question: string, text: string): number {
  const stem = (token: string) => token.slice(0, 5);
  const wanted = [...new Set(contentTokens(question).map(stem))];
  if (wanted.length === 0) return 0;
  const have = contentTokens(text).map(stem);
  return wanted.filter((word) => have.some((token) => token.startsWith(word))).length / wanted.length;
}

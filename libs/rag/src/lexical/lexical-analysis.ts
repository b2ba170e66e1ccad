import { DEFAULT_SEGMENTATION, segmentWords } from './word-segmentation';
import type { Segmentation } from './word-segmentation';

/** What PostgreSQL is given for one text: `to_tsvector(config, text)`. */
export interface LexicalAnalysis {
  config: string;
  text: string;
}

/**
 * The text PostgreSQL analyses: Unicode NFC, so that a precomposed letter and a base letter with a
 * combining mark are one word (Devanagari nukta forms, accented Latin typed either way), then with the
 * words of scripts written without spaces separated. Documents and queries alike.
 */
export function lexicalText(text: string, segmentation: Segmentation = DEFAULT_SEGMENTATION): string {
  return segmentWords(text.normalize('NFC'), segmentation);
}

/** A document's (or chunk's) analysis: its language's configuration over its segmented text. */
export function analyseForIndex(
  text: string,
  config: string,
  segmentation: Segmentation = DEFAULT_SEGMENTATION,
): LexicalAnalysis {
  return { config, text: lexicalText(text, segmentation) };
}

/**
 * A query's analyses: one per text-search configuration in the corpus, since a query matches a chunk
 * only through the lexemes of the chunk's own analysis (a German question is stemmed as German for the
 * German chunks and as English for the English ones). Segmentation depends on the script, not on the
 * language, so it is the same for every configuration. An empty corpus still gets one (`fallback`).
 */
export function analyseQuery(
  query: string,
  corpusConfigs: readonly string[],
  fallback: string,
  segmentation: Segmentation = DEFAULT_SEGMENTATION,
): LexicalAnalysis[] {
  const text = lexicalText(query, segmentation);
  const configs = [...new Set(corpusConfigs.length > 0 ? corpusConfigs : [fallback])].sort();
  return configs.map((config) => ({ config, text }));
}

import type { LanguageDetector, LanguageGuess } from '../ports/language-detector.port';

/**
 * How a document's language is decided (README, "How a document's language is decided"), with the
 * evidence the installation has: the upload's `language`, the installation's DEFAULT_LANGUAGE, the
 * detector's answer and how sure it is, the text's length, and the language the corpus already holds.
 *
 * A detector reading a few hundred characters of a medical abstract full of Latin and Greek terms names
 * French or Spanish now and then: 4 of the 3,633 NFCorpus train+dev abstracts (all English). Stemmed as
 * French, such an abstract keeps the English stop words as lexemes that no English chunk has, so every
 * English question scores it through words like "the" at the highest idf of the corpus: those 4
 * abstracts stood in the top 10 of 62–91 of the 324 dev questions each. So a document leaves the
 * corpus's prevailing language only on strong evidence.
 */

/** Characters the second look reads: eld reads at most 1,000 whatever it is given. */
export const SECOND_LOOK_CHARS = 1000;
/**
 * The least lead, in the detector's score, of a language over the prevailing one for a document to
 * leave it. Measured with eld (small) over 1,000 characters: a German or Spanish XQuAD passage leads
 * English by at least 0.112 (and German or Spanish passages lead each other by 0.15 or more), while
 * Hindi and Marathi, which eld confuses, are less than 0.002 apart. Half the smallest real lead.
 */
export const MIN_LANGUAGE_LEAD = 0.05;
/** A text with fewer letters than this is too short to overrule the corpus (a guard, not a fit). */
export const SHORT_TEXT_LETTERS = 100;

export type LanguageSource = 'upload' | 'default' | 'detected' | 'prevailing' | 'undetected';

export interface LanguageDecision {
  language: string | null;
  /** Where it came from: the upload, DEFAULT_LANGUAGE, the detector, the corpus, or nowhere. */
  source: LanguageSource;
}

export interface DocumentLanguageInput {
  /** What the detector reads (the title and the text). */
  text: string;
  /** The language the upload named, if any: it wins. */
  upload: string | null;
}

export interface LanguageContext {
  /** The installation's DEFAULT_LANGUAGE: every document the upload does not name is in it. */
  defaultLanguage: string | null;
  /** How many documents of the corpus hold each language. */
  corpusCounts: Readonly<Record<string, number>>;
}

/** The language that holds more than half of the documents that have one, or null. */
export function prevailingLanguage(counts: Readonly<Record<string, number>>): string | null {
  let total = 0;
  let best: string | null = null;
  for (const [language, count] of Object.entries(counts)) {
    total += count;
    if (best === null || count > counts[best]! || (count === counts[best] && language < best)) {
      best = language;
    }
  }
  return best !== null && counts[best]! * 2 > total ? best : null;
}

/**
 * The languages of a batch of documents. The prevailing language is the corpus's together with the
 * batch's (its named languages and the detector's reliable first answers), so the first batch of an
 * empty corpus has one too.
 */
export function decideDocumentLanguages(
  documents: readonly DocumentLanguageInput[],
  detector: LanguageDetector,
  context: LanguageContext,
): LanguageDecision[] {
  const fixed = documents.map((document) => named(document, context.defaultLanguage));
  const guesses = documents.map((document, i) => (fixed[i] ? null : detector.guess(document.text)));
  const counts: Record<string, number> = { ...context.corpusCounts };
  documents.forEach((_, i) => {
    const language = fixed[i]?.language ?? (guesses[i]?.reliable ? guesses[i].language : null);
    if (language) counts[language] = (counts[language] ?? 0) + 1;
  });
  const prevailing = prevailingLanguage(counts);
  return documents.map(
    (document, i) => fixed[i] ?? settleLanguage(document.text, guesses[i]!, detector, prevailing),
  );
}

function named(document: DocumentLanguageInput, defaultLanguage: string | null): LanguageDecision | null {
  if (document.upload) return { language: document.upload, source: 'upload' };
  if (defaultLanguage) return { language: defaultLanguage, source: 'default' };
  return null;
}

/**
 * The detector's first answer against the prevailing language: it stands when it agrees, or when the
 * corpus has no prevailing language. Otherwise the document keeps the prevailing language if it is
 * short, if the detector is unsure, or if a second look at more of it (SECOND_LOOK_CHARS) names the
 * prevailing language, is unsure, or puts the other language less than MIN_LANGUAGE_LEAD ahead.
 */
export function settleLanguage(
  text: string,
  first: LanguageGuess,
  detector: LanguageDetector,
  prevailing: string | null,
): LanguageDecision {
  if (!prevailing || first.language === prevailing) {
    return first.language ? { language: first.language, source: 'detected' } : undetected();
  }
  const keep: LanguageDecision = { language: prevailing, source: 'prevailing' };
  if (!first.language || !first.reliable || fewerLetters(text, SHORT_TEXT_LETTERS)) return keep;
  const second = detector.guess(text, SECOND_LOOK_CHARS);
  if (!second.language || !second.reliable || second.language === prevailing) return keep;
  const lead = (second.scores[second.language] ?? 0) - (second.scores[prevailing] ?? 0);
  return lead < MIN_LANGUAGE_LEAD ? keep : { language: second.language, source: 'detected' };
}

function undetected(): LanguageDecision {
  return { language: null, source: 'undetected' };
}

function fewerLetters(text: string, letters: number): boolean {
  let seen = 0;
  for (const _ of text.matchAll(/\p{L}/gu)) if (++seen >= letters) return false;
  return true;
}

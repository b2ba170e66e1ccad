import type { AnswerabilityVerdict } from '@lumina/shared';

/**
 * The answerability decision in plain words: each feature the model weighed, what it measures, its
 * value and how much it pushed the decision (its contribution to the log-odds), strongest first.
 */
const FEATURE_WORDS: Record<string, string> = {
  idfMassInCorpus: "Share of the question's words (rare ones weigh most) that the documents use at all",
  salientInCorpus: "The question's rarest words appear in the documents",
  coverageTop1: "Share of the question's words found in the best passage",
  coverageTop3: "Share of the question's words found in one of the top three passages",
  coverageUnion3: "Share of the question's words found across the top three passages",
  sentenceCoverage: "Share of the question's words that one sentence of the top passages names",
  salientInTop1: "The question's rarest word the documents use is in the best passage",
  bm25Relative: 'Keyword score of the best passage against the best the question could reach',
  bm25Margin: 'How far the best passage leads the next one on keywords',
  logQueryTerms: 'Length of the question (its words after stop words, on a log scale)',
  denseTop1: 'Meaning similarity of the question to the best passage',
  branchAgreement: 'Share of the search branches that agree on the best passage',
};

/** "salientInTop1" → "Salient in top 1" for a feature this page has no words for yet. */
export function humanizeFeature(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z0-9])/g, '$1 $2')
    .replace(/([0-9])([A-Za-z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function describeFeature(name: string): string {
  return FEATURE_WORDS[name] ?? humanizeFeature(name);
}

export interface FeatureExplanation {
  name: string;
  words: string;
  value: number | null;
  contribution: number;
}

/** The features sorted by the size of their contribution (ties by name); unweighed ones last. */
export function explainVerdict(verdict: AnswerabilityVerdict): FeatureExplanation[] {
  const names = new Set([...Object.keys(verdict.contributions), ...Object.keys(verdict.features)]);
  return [...names]
    .map((name) => ({
      name,
      words: describeFeature(name),
      value: verdict.features[name] ?? null,
      contribution: verdict.contributions[name] ?? 0,
    }))
    .sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution) || a.name.localeCompare(b.name));
}

/** The verdict in one sentence. */
export function verdictSentence(verdict: AnswerabilityVerdict): string {
  const score = verdict.score.toFixed(2);
  const threshold = verdict.threshold.toFixed(2);
  return verdict.answerable
    ? `Answerable: the score ${score} reaches the threshold ${threshold}.`
    : `Refused before any model call: the score ${score} is below the threshold ${threshold}.`;
}

export { analyseForIndex, analyseQuery, lexicalText } from './lexical-analysis';
export type { LexicalAnalysis } from './lexical-analysis';
export { LANGUAGE_ANALYSIS, SIMPLE_CONFIG, textSearchConfig } from './text-search-config';
export type { LanguageAnalysisChoice } from './text-search-config';
export { DEFAULT_SEGMENTATION, hasNoSpaceScript, segmentWords } from './word-segmentation';
export type { Segmentation } from './word-segmentation';
export { crossLingualWarning } from './cross-lingual';
export { LANGUAGE_SAMPLE_CHARS, languageSample } from './language-sample';
export {
  decideDocumentLanguages,
  MIN_LANGUAGE_LEAD,
  prevailingLanguage,
  SECOND_LOOK_CHARS,
  settleLanguage,
  SHORT_TEXT_LETTERS,
} from './document-language';
export type {
  DocumentLanguageInput,
  LanguageContext,
  LanguageDecision,
  LanguageSource,
} from './document-language';
export { BOUND_SLACK, everyTermQuery, maxScorePlan, missingOneTermBound, termUpperBound } from './maxscore';
export type { BoundedTerm, MaxScorePlan } from './maxscore';

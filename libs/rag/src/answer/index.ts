export {
  ANSWER_PROMPT_VERSION,
  MAX_PROMPT_PASSAGE_CHARS,
  answerMessages,
  neutraliseFence,
} from './answer-prompt';
export type { PromptPassage } from './answer-prompt';
export { AnswerSanitizer, LINK_REMOVED, safeCut, sanitizeAnswer } from './answer-sanitizer';
export {
  MARKER_GROUP,
  citedMarkers,
  isMarkerGroup,
  markerNumbers,
  passageForMarker,
  resolveCitations,
  rewriteMarkerGroup,
} from './citation-markers';
export type { CitablePassage, MarkerRewrite, ResolvedCitation } from './citation-markers';
export {
  DEFAULT_EXTRACTIVE_OPTIONS,
  EXTRACTIVE_ANSWERER_VERSION,
  candidateSentences,
  cosineSimilarity,
  extractiveAnswer,
  fallbackTerms,
  formatExtractiveAnswer,
  isNavigation,
  lexicalScore,
  markdownBlocks,
  matchesStem,
  selectSentences,
  wordTokens,
} from './extractive-answerer';
export type {
  CandidateSentence,
  ExtractiveAnswer,
  ExtractiveOptions,
  ExtractivePassage,
  QuotedSentence,
  WeightedTerm,
} from './extractive-answerer';
export { GENERAL_PROMPT_VERSION, generalKnowledgeMessages } from './general-prompt';
export {
  STANDALONE_PROMPT_VERSION,
  historyStandaloneQuery,
  parseStandaloneQuery,
  standaloneQueryMessages,
} from './standalone-query';
export type { HistoryTurn } from './standalone-query';
export { generateAnswer, offlineAnswerOf } from './generate-answer';
export { ANSWER_ERROR_MESSAGES } from './stages/answer-run';
export type {
  AnswerDeps,
  AnswerFailure,
  AnswerInput,
  AnswerOutcome,
  AnswerSink,
  RetrievalStage,
} from './stages/answer-run';
export { renumberCitations } from './stages/cite';
export { refusesBeforeWriting, startsWithNotFound } from './stages/decide';
export { ANSWER_MAX_TOKENS, ANSWER_TEMPERATURE, generateGeneralAnswer } from './stages/generate';
export { answerRecord } from './stages/store';
export type { AnswerRecord } from './stages/store';
export {
  DEFAULT_FOLLOW_UP_RULE,
  citedWordsQuery,
  combineFollowUp,
  interleaveLeading,
  refersBack,
  searchFollowUp,
} from './follow-up-query';
export type {
  FollowUpCombination,
  FollowUpEvidence,
  FollowUpReason,
  FollowUpRule,
  FollowUpSearch,
} from './follow-up-query';

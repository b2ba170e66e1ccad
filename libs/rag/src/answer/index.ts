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
export { startsWithNotFound } from './not-found';
export {
  STANDALONE_PROMPT_VERSION,
  historyStandaloneQuery,
  parseStandaloneQuery,
  standaloneQueryMessages,
} from './standalone-query';
export type { HistoryTurn } from './standalone-query';
export {
  ANSWER_ERROR_MESSAGES,
  ANSWER_MAX_TOKENS,
  ANSWER_TEMPERATURE,
  generateAnswer,
  generateGeneralAnswer,
  offlineAnswerOf,
  renumberCitations,
} from './generate-answer';
export type {
  AnswerDeps,
  AnswerFailure,
  AnswerInput,
  AnswerOutcome,
  AnswerSink,
  RetrievalStage,
} from './generate-answer';
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

export { ANSWER_PROMPT_VERSION, neutraliseFence } from './answer-prompt';
export { MARKER_GROUP, markerNumbers } from './citation-markers';
export {
  EXTRACTIVE_ANSWERER_VERSION,
  candidateSentences,
  lexicalScore,
  markdownBlocks,
} from './extractive-answerer';
export type { ExtractiveOptions } from './extractive-answerer';
export { historyStandaloneQuery } from './standalone-query';
export type { HistoryTurn } from './standalone-query';
export { generateAnswer, offlineAnswerOf } from './generate-answer';
export { ANSWER_ERROR_MESSAGES } from './stages/answer-run';
export type { AnswerDeps, AnswerInput, AnswerOutcome, AnswerSink } from './stages/answer-run';
export { refusesBeforeWriting } from './stages/decide';
export { generateGeneralAnswer } from './stages/generate';
export { answerRecord } from './stages/store';
export {
  DEFAULT_FOLLOW_UP_RULE,
  citedWordsQuery,
  combineFollowUp,
  refersBack,
  searchFollowUp,
} from './follow-up-query';
export type { FollowUpEvidence, FollowUpReason, FollowUpRule } from './follow-up-query';

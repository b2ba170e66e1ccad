export {
  bestRule,
  candidateRules,
  chatFigures,
  conversationFigures,
  formatConversationFigures,
  formatRate,
  ruleFigures,
  ruleKey,
  switchAnswersUnchanged,
} from './conversation-report';
export type {
  ConversationCase,
  ConversationFigures,
  ConversationMeasure,
  RuleOutcome,
  SearchOutcome,
} from './conversation-report';

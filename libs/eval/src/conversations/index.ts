export {
  bestRule,
  candidateRules,
  chatFigures,
  conversationFigures,
  formatConversationFigures,
  ruleFigures,
  ruleKey,
} from './conversation-report';
export type {
  ConversationCase,
  ConversationFigures,
  ConversationMeasure,
  RuleOutcome,
  SearchOutcome,
} from './conversation-report';

export {
  bestRule,
  candidateRules,
  chatFigures,
  conversationFigures,
  formatConversationFigures,
  ruleFigures,
} from './conversation-report';
export type {
  ConversationCase,
  ConversationFigures,
  ConversationMeasure,
  SearchOutcome,
} from './conversation-report';

export { answerMetrics, answerSupported, quotesGold, rateInterval } from './answer-metrics';
export type { AnsweredItem } from './answer-metrics';
export { leaveGoldOut } from './leave-gold-out';
export type { LeaveGoldOutSplit } from './leave-gold-out';

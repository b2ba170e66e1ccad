export * from './settings';
export * from './documents';
export * from './question-banks';
export * from './chat';
export * from './auth';
export * from './answerability';
export * from './not-found-sentences';
export * from './languages';

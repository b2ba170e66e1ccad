export * from './settings';
export * from './documents';

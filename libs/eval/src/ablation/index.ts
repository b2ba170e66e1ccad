export * from './ablation';

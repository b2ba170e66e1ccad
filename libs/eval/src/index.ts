export * from './metrics';
export * from './stats';
export * from './datasets';
export * from './runner';
export * from './answers';
export * from './rerank';
export * from './ablation';
export * from './synthetic';

// The seeded generator lives in libs/rag, whose fitting uses it too; evaluation draws from the same one.
export { mulberry32 } from '@lumina/rag';
export type { RandomSource } from '@lumina/rag';

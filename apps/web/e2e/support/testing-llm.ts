/**
 * The scripted OpenAI-compatible server (libs/testing-llm) for the browser tests. Jest loads the global
 * setup outside its module map, where the workspace's path aliases do not resolve, so the browser tests
 * reach the library through this one relative import.
 */
// eslint-disable-next-line @nx/enforce-module-boundaries -- the global setup cannot resolve @lumina/testing-llm
export * from '../../../../libs/testing-llm/src';

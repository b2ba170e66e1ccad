export { ScriptedOpenAiServer } from './scripted-openai-server';
export type {
  RecordedRequest,
  ScriptedReply,
  ScriptedServerOptions,
  ScriptHandler,
} from './scripted-openai-server';
export { completion, defaultReply, fakeVector } from './replies';
export type { TokenUsage } from './replies';
export { searchBranchScript } from './scripts/search-branch-script';
export {
  PLATFORM_SERVICES,
  platformServicePage,
  platformServiceQuestion,
} from './fixtures/platform-services';
export type { PlatformService } from './fixtures/platform-services';

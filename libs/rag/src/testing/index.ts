/**
 * Fakes of the ports and builders of search results, for unit tests only (`@lumina/rag/testing`): the lint
 * keeps production code from importing them, and the lib's build leaves them out.
 */
export { FakeChatModel, delay } from './fake-chat-model';
export type { FakeReply, FakeStream } from './fake-chat-model';
export { FakeChunkSearch, FakeEmbedder } from './fake-search-ports';
export type { CallLog, FakeChunkSearchOptions } from './fake-search-ports';
export { searchHit, searchResult } from './search-result-builders';

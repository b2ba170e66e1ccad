import { Global, Inject, Logger, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { ChatModel, LanguageDetector, AnyReranker } from '@lumina/rag';
import type { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/app-config';
import type { Env } from '../config/env.schema';
import { CachedEmbedder } from './cached-embedder';
import { createChatModel, createLocalChatModel, searchModel } from './create-chat-model';
import type { LocalChatModelSetup } from './create-chat-model';
import { createEmbedder } from './create-embedder';
import { createReranker } from './create-reranker';
import { loadLanguageDetector } from './eld-language-detector';

/**
 * Injection token of the configured embedder, wrapped with the database cache (a CachedEmbedder).
 * Services take it as the EmbeddingProvider port; only the re-embed job reads the cache's counters.
 */
export const EMBEDDER = Symbol('EMBEDDER');
export const InjectEmbedder = (): ParameterDecorator => Inject(EMBEDDER);

/** Injection token of the chat model (ChatModel), or null when LLM_BASE_URL is unset (offline). */
export const CHAT_MODEL = Symbol('CHAT_MODEL');
export const InjectChatModel = (): ParameterDecorator => Inject(CHAT_MODEL);

/** Injection token of the in-process LLM's setup (LocalChatModelSetup): off, ready, or missing and why. */
export const LOCAL_CHAT_MODEL = Symbol('LOCAL_CHAT_MODEL');
export const InjectLocalChatModel = (): ParameterDecorator => Inject(LOCAL_CHAT_MODEL);

/**
 * Injection token of the model that writes the search's multi-query variants and HyDE passage (ChatModel
 * or null): the endpoint's chat model, else the local model of LLM_PROVIDER=local, else none.
 */
export const SEARCH_MODEL = Symbol('SEARCH_MODEL');
export const InjectSearchModel = (): ParameterDecorator => Inject(SEARCH_MODEL);

/**
 * Injection token of the reranker: RERANK_BASE_URL, else the chat model listwise, else the learned
 * reranker of RERANK_MODEL_FILE, else null.
 */
export const RERANKER = Symbol('RERANKER');
export const InjectReranker = (): ParameterDecorator => Inject(RERANKER);

/** Injection token of the language detector (LanguageDetector) for documents and questions. */
export const LANGUAGE_DETECTOR = Symbol('LANGUAGE_DETECTOR');
export const InjectLanguageDetector = (): ParameterDecorator => Inject(LANGUAGE_DETECTOR);

/** Adapters that implement libs/rag ports for the rest of the server. */
@Global()
@Module({
  providers: [
    {
      provide: EMBEDDER,
      inject: [APP_CONFIG, getDataSourceToken()],
      useFactory: (env: Env, dataSource: DataSource) =>
        new CachedEmbedder(createEmbedder(env), dataSource, env.EMBEDDINGS_BATCH_SIZE),
    },
    {
      provide: CHAT_MODEL,
      inject: [APP_CONFIG],
      useFactory: (env: Env): ChatModel | null => {
        const logger = new Logger('ChatModel');
        return createChatModel(env, (retry) => logger.warn({ msg: 'retrying the chat endpoint', ...retry }));
      },
    },
    {
      provide: LOCAL_CHAT_MODEL,
      inject: [APP_CONFIG],
      useFactory: (env: Env): LocalChatModelSetup => {
        const setup = createLocalChatModel(env);
        if (setup.state === 'missing') new Logger('LocalChatModel').warn(setup.reason);
        return setup;
      },
    },
    {
      provide: SEARCH_MODEL,
      inject: [CHAT_MODEL, LOCAL_CHAT_MODEL],
      useFactory: (chat: ChatModel | null, local: LocalChatModelSetup): ChatModel | null =>
        searchModel(chat, local),
    },
    {
      provide: RERANKER,
      inject: [APP_CONFIG, CHAT_MODEL],
      useFactory: (env: Env, chat: ChatModel | null): AnyReranker | null => createReranker(env, chat),
    },
    {
      provide: LANGUAGE_DETECTOR,
      useFactory: (): Promise<LanguageDetector> => loadLanguageDetector(),
    },
  ],
  exports: [EMBEDDER, CHAT_MODEL, LOCAL_CHAT_MODEL, SEARCH_MODEL, RERANKER, LANGUAGE_DETECTOR],
})
export class ProvidersModule {}

/**
 * The web app's client of the Lumina API: one transport (lib/api/transport.ts) under one file per
 * resource (lib/api/*.ts), each typed from libs/shared. Components get it from ApiProvider
 * (hooks/use-api-client.tsx) and call its methods by name.
 */
import { ablationsApi } from './api/ablations';
import { authApi } from './api/auth';
import { chatApi } from './api/chat';
import { collectionsApi } from './api/collections';
import { documentsApi } from './api/documents';
import { evaluationsApi } from './api/evaluations';
import { feedbackApi } from './api/feedback';
import { healthApi } from './api/health';
import { questionBanksApi } from './api/question-banks';
import { rerankersApi } from './api/rerankers';
import { searchApi } from './api/search';
import { sourcesApi } from './api/sources';
import { createTransport, type TransportOptions } from './api/transport';

export type ApiClientOptions = TransportOptions;

/** Every failure is thrown as an ApiError whose message is a sentence for a person. */
export function createApiClient(options: ApiClientOptions) {
  const http = createTransport(options);
  return {
    baseUrl: http.baseUrl,
    ...healthApi(http),
    ...authApi(http),
    ...searchApi(http),
    ...chatApi(http),
    ...documentsApi(http),
    ...collectionsApi(http),
    ...questionBanksApi(http),
    ...evaluationsApi(http),
    ...ablationsApi(http),
    ...rerankersApi(http),
    ...feedbackApi(http),
    ...sourcesApi(http),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

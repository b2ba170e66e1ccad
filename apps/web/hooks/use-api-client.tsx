'use client';

import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { createApiClient, type ApiClient } from '../lib/api-client';
import { credentialsStore } from '../store/credentials.store';

/** The API client for the components: one per API address, sending the key signed in with. */
const ApiContext = createContext<ApiClient | null>(null);

export interface ApiProviderProps {
  /** Read on the server at request time and handed down, so one build serves any API address. */
  baseUrl: string;
  children: ReactNode;
}

export function ApiProvider({ baseUrl, children }: ApiProviderProps) {
  const client = useMemo(
    () => createApiClient({ baseUrl, apiKey: () => credentialsStore.getState().apiKey }),
    [baseUrl],
  );
  return <ApiContext value={client}>{children}</ApiContext>;
}

export function useApiClient(): ApiClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApiClient must be called inside <ApiProvider>.');
  return client;
}

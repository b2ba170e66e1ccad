'use client';

import { useEffect, useState } from 'react';
import type { ApiOperationName } from '../lib/api-operations';
import { useApiClient } from './use-api-client';
import { matchOperations } from '../lib/openapi-paths';

/** What the connected server offers, read once from its OpenAPI document. */
export interface Capabilities {
  /** False until the document is read, or when the server publishes none. */
  known: boolean;
  missing: ReadonlySet<ApiOperationName>;
}

const UNKNOWN: Capabilities = { known: false, missing: new Set() };
const cache = new Map<string, Promise<Capabilities>>();

function load(baseUrl: string): Promise<Capabilities> {
  let pending = cache.get(baseUrl);
  if (!pending) {
    pending = fetch(`${baseUrl}/api/docs-json`, { cache: 'no-store', credentials: 'omit' })
      .then(async (response) => {
        if (!response.ok) return UNKNOWN;
        const { missing } = matchOperations(await response.json());
        return { known: true, missing: new Set(missing) };
      })
      .catch(() => {
        cache.delete(baseUrl);
        return UNKNOWN;
      });
    cache.set(baseUrl, pending);
  }
  return pending;
}

/**
 * Which endpoints the server lacks, so a page can say "not available on this server yet" up front.
 * Unknown (no document, or not yet loaded) counts as available: calls then explain a 404 themselves.
 */
export function useCapabilities(): Capabilities & { has: (operation: ApiOperationName) => boolean } {
  const api = useApiClient();
  const [capabilities, setCapabilities] = useState<Capabilities>(UNKNOWN);
  useEffect(() => {
    let live = true;
    void load(api.baseUrl).then((result) => {
      if (live) setCapabilities(result);
    });
    return () => {
      live = false;
    };
  }, [api.baseUrl]);
  return { ...capabilities, has: (operation) => !capabilities.missing.has(operation) };
}

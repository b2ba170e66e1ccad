'use client';

import { useState } from 'react';
import type { ActiveReranker, RerankerModelSummary } from '@lumina/shared';
import { useApiClient } from '../../hooks/use-api-client';
import { usePoll } from '../../hooks/use-poll';
import { useResource } from '../../hooks/use-resource';
import type { ApiClient } from '../../lib/api-client';
import { rerankersBusy } from '../../lib/rerankers';

export interface BankRerankers {
  models: RerankerModelSummary[];
  active: ActiveReranker;
}

async function load(api: ApiClient, bankId: string, signal?: AbortSignal): Promise<BankRerankers> {
  const [page, active] = await Promise.all([
    api.listRerankers({ bankId, page: 1, limit: 50 }, { signal }),
    api.getActiveReranker({ signal }),
  ]);
  return { models: page.items, active };
}

/**
 * The bank's fitted rerankers (newest first) and what serves reranking now; followed every second
 * while a fit is queued or running. `refresh` reads both again after an action.
 */
export function useBankRerankers(bankId: string) {
  const api = useApiClient();
  const first = useResource(`rerankers|${bankId}`, (signal) => load(api, bankId, signal));
  const [fresh, setFresh] = useState<BankRerankers | null>(null);
  const shown = fresh ?? first.data;
  const busy = rerankersBusy(shown?.models ?? []);

  usePoll(busy, async (signal) => {
    const next = await load(api, bankId, signal);
    setFresh(next);
    return !rerankersBusy(next.models);
  });

  const refresh = async () => setFresh(await load(api, bankId));
  return { shown, busy, error: first.error, reload: first.reload, refresh };
}

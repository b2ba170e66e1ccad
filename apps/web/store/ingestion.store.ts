import type { DocumentStatus } from '@lumina/shared';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../lib/api-client';
import { isApiError } from '../lib/api-errors';
import type { DocumentEventView } from '../lib/api/documents';
import { isTerminal } from '../lib/ingestion';

export interface TrackedDocument extends DocumentEventView {
  id: string;
  title: string;
  /** 'sse' while the event stream is open, 'poll' when the server has none, 'idle' once settled. */
  via: 'sse' | 'poll' | 'idle';
}

export interface IngestionState {
  documents: Record<string, TrackedDocument>;
  track: (id: string, title: string, status: DocumentStatus) => void;
  update: (id: string, progress: Partial<DocumentEventView> & { via?: TrackedDocument['via'] }) => void;
  forget: (id: string) => void;
}

export function createIngestionStore() {
  return createStore<IngestionState>()((set) => ({
    documents: {},
    track: (id, title, status) =>
      set((state) => ({
        documents: {
          ...state.documents,
          [id]: state.documents[id] ?? {
            id,
            title,
            status,
            stage: status,
            done: 0,
            total: 0,
            error: null,
            chunkCount: null,
            via: 'idle',
          },
        },
      })),
    update: (id, progress) =>
      set((state) => {
        const current = state.documents[id];
        if (!current) return state;
        return { documents: { ...state.documents, [id]: { ...current, ...progress } } };
      }),
    forget: (id) =>
      set((state) => {
        const { [id]: _gone, ...rest } = state.documents;
        return { documents: rest };
      }),
  }));
}

export type IngestionStore = ReturnType<typeof createIngestionStore>;

export const ingestionStore: IngestionStore = createIngestionStore();

export function useIngestionStore<T>(selector: (state: IngestionState) => T): T {
  return useStore(ingestionStore, selector);
}

const POLL_MS = 1_000;

/**
 * Follows one document until it settles: the server's event stream when it has one, else polling
 * GET /documents/:id. Returns a function that stops following. `onSettled` runs once at the end.
 */
export function watchDocument(
  api: Pick<ApiClient, 'documentEvents' | 'getDocument'>,
  store: IngestionStore,
  id: string,
  onSettled?: (progress: TrackedDocument) => void,
): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  const settle = () => {
    const tracked = store.getState().documents[id];
    store.getState().update(id, { via: 'idle' });
    if (tracked && !signal.aborted) onSettled?.({ ...tracked, via: 'idle' });
  };

  const poll = async () => {
    store.getState().update(id, { via: 'poll' });
    while (!signal.aborted) {
      try {
        const document = await api.getDocument(id, { signal });
        store.getState().update(id, {
          status: document.status,
          stage: document.status,
          error: document.error,
          chunkCount: document.chunkCount,
        });
        if (isTerminal(document.status)) return settle();
      } catch (error) {
        if (signal.aborted) return;
        if (isApiError(error) && error.status === 404) {
          store
            .getState()
            .update(id, { status: 'cancelled', stage: 'cancelled', error: 'The document was deleted.' });
          return settle();
        }
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };

  const follow = async () => {
    const start = store.getState().documents[id]?.status ?? 'queued';
    if (isTerminal(start)) return settle();
    store.getState().update(id, { via: 'sse' });
    try {
      for await (const progress of api.documentEvents(id, { signal })) {
        store.getState().update(id, progress);
        if (isTerminal(progress.status)) return settle();
      }
      if (signal.aborted) return;
      // The stream ended without a final state: ask the document itself.
      await poll();
    } catch {
      if (signal.aborted) return;
      await poll();
    }
  };

  void follow();
  return () => controller.abort();
}

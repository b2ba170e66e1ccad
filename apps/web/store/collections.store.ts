import type { Collection } from '@lumina/shared';
import { useStore } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../lib/api-client';
import { isApiError } from '../lib/api-errors';
import {
  everyLiveCollectionId,
  normaliseSelection,
  reconcileSelection,
  requestCollectionIds,
  selectionOfConversation,
  toggleCollection,
} from '../lib/collections';

export type CollectionsLoad = 'idle' | 'loading' | 'ready' | 'error';

/**
 * Which collections a question searches (kept like the retrieval settings; none picked: every one) and
 * the list of collections the screens name them from.
 */
export interface CollectionsState {
  /** The picked collections' ids; empty means every collection. */
  selected: string[];
  /** Every collection, once loaded (null before). */
  known: Collection[] | null;
  loadState: CollectionsLoad;
  loadError: string | null;
  /** True when GET /collections does not exist on this server. */
  missing: boolean;
  /** The API key the latest load was made with (which collections a key may read differs); undefined before. */
  loadedFor: string | null | undefined;

  select: (ids: readonly string[]) => void;
  toggle: (id: string, picked: boolean) => void;
  /** Every collection (sends no collectionIds). */
  selectAll: () => void;
  /** Shows an opened conversation's collections. */
  showConversation: (collectionIds: readonly string[]) => void;
  setLoading: (apiKey?: string | null) => void;
  /**
   * The list arrived; when it is `complete`, the selection forgets collections that are gone or being
   * deleted.
   */
  setKnown: (collections: Collection[], complete?: boolean) => void;
  setLoadError: (message: string, missing?: boolean) => void;
}

export const COLLECTIONS_STORAGE_KEY = 'lumina.collections';

export function createCollectionsStore({
  storage,
  skipHydration = false,
}: { storage?: StateStorage; skipHydration?: boolean } = {}) {
  return createStore<CollectionsState>()(
    persist(
      (set) => ({
        selected: [],
        known: null,
        loadState: 'idle',
        loadError: null,
        missing: false,
        loadedFor: undefined,

        select: (ids) => set({ selected: normaliseSelection(ids) }),
        toggle: (id, picked) => set((state) => ({ selected: toggleCollection(state.selected, id, picked) })),
        selectAll: () => set({ selected: [] }),
        showConversation: (collectionIds) =>
          set((state) => ({ selected: selectionOfConversation(collectionIds, state.known) })),
        setLoading: (apiKey = null) => set({ loadState: 'loading', loadError: null, loadedFor: apiKey }),
        setKnown: (collections, complete = true) =>
          set((state) => ({
            known: collections,
            loadState: 'ready',
            loadError: null,
            missing: false,
            selected: complete ? reconcileSelection(state.selected, collections) : state.selected,
          })),
        setLoadError: (message, missing = false) => set({ loadState: 'error', loadError: message, missing }),
      }),
      {
        name: COLLECTIONS_STORAGE_KEY,
        version: 1,
        storage: createJSONStorage(() => storage ?? window.localStorage),
        skipHydration,
        partialize: (state) => ({ selected: state.selected }),
        merge: (persisted, current) => {
          const stored = normaliseSelection(
            typeof persisted === 'object' && persisted !== null
              ? (persisted as { selected?: unknown }).selected
              : undefined,
          );
          return {
            ...current,
            // The list in memory may be partial; it is reconciled again when the next full list arrives.
            selected: stored,
          };
        },
      },
    ),
  );
}

export type CollectionsStore = ReturnType<typeof createCollectionsStore>;

/** The app's collections store; a client component rehydrates the selection from localStorage after mount. */
export const collectionsStore: CollectionsStore = createCollectionsStore({ skipHydration: true });

export function useCollectionsStore<T>(selector: (state: CollectionsState) => T): T {
  return useStore(collectionsStore, selector);
}

/** The `collectionIds` of the next search or chat, read at the moment of sending (none: every collection). */
export function getRequestedCollectionIds(store: CollectionsStore = collectionsStore): string[] | undefined {
  return requestCollectionIds(store.getState().selected);
}

/** Every live collection's id, for "All collections" in an open conversation (undefined while unknown). */
export function getEveryCollectionId(store: CollectionsStore = collectionsStore): string[] | undefined {
  return everyLiveCollectionId(store.getState().known);
}

const PAGE_LIMIT = 100;
/** Enough pages for any real library; a longer list is shown as far as it got. */
const MAX_PAGES = 20;

/** The latest load of each store: an answer to an earlier one (e.g. with the previous key) is dropped. */
const latestLoad = new WeakMap<CollectionsStore, number>();

/** Loads every collection (page by page) into the store, noting the API key it is loaded with. */
export async function loadCollections(
  api: Pick<ApiClient, 'listCollections'>,
  store: CollectionsStore = collectionsStore,
  apiKey: string | null = null,
): Promise<void> {
  const load = (latestLoad.get(store) ?? 0) + 1;
  latestLoad.set(store, load);
  const current = () => latestLoad.get(store) === load;
  store.getState().setLoading(apiKey);
  try {
    const items: Collection[] = [];
    let complete = false;
    for (let page = 1; page <= MAX_PAGES && !complete; page += 1) {
      const answer = await api.listCollections({ page, limit: PAGE_LIMIT });
      if (!current()) return;
      items.push(...answer.items);
      complete = page >= answer.totalPages || answer.items.length === 0;
    }
    store.getState().setKnown(items, complete);
  } catch (error) {
    if (!current()) return;
    if (isApiError(error)) store.getState().setLoadError(error.message, error.missingRoute);
    else {
      console.error(error);
      store.getState().setLoadError('The collections could not be loaded. Reload the page and try again.');
    }
  }
}

import type { Collection } from '@lumina/shared';
import type { StateStorage } from 'zustand/middleware';
import { ApiError } from '../lib/api-errors';
import {
  COLLECTIONS_STORAGE_KEY,
  createCollectionsStore,
  getEveryCollectionId,
  getRequestedCollectionIds,
  loadCollections,
} from './collections.store';
import { collection } from '../lib/testing/collections';

function memoryStorage(initial: Record<string, string> = {}): StateStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (name) => data.get(name) ?? null,
    setItem: (name, value) => void data.set(name, value),
    removeItem: (name) => void data.delete(name),
  };
}

function pages(all: Collection[], limit: number) {
  const calls: { page?: number; limit?: number }[] = [];
  return {
    calls,
    api: {
      listCollections: async (query: { page?: number; limit?: number } = {}) => {
        calls.push(query);
        const page = query.page ?? 1;
        const items = all.slice((page - 1) * limit, page * limit);
        return { items, page, limit, total: all.length, totalPages: Math.ceil(all.length / limit) };
      },
    },
  };
}

describe('collections store', () => {
  it('searches every collection until some are picked, and keeps the pick across reloads', async () => {
    const storage = memoryStorage();
    const store = createCollectionsStore({ storage });
    expect(getRequestedCollectionIds(store)).toBeUndefined();

    store.getState().toggle('a', true);
    store.getState().toggle('b', true);
    expect(getRequestedCollectionIds(store)).toEqual(['a', 'b']);
    expect(JSON.parse(storage.data.get(COLLECTIONS_STORAGE_KEY)!)).toMatchObject({
      state: { selected: ['a', 'b'] },
    });

    const reloaded = createCollectionsStore({ storage });
    await reloaded.persist.rehydrate();
    expect(reloaded.getState().selected).toEqual(['a', 'b']);

    reloaded.getState().selectAll();
    expect(getRequestedCollectionIds(reloaded)).toBeUndefined();
  });

  it('gives every live collection for "All" in an open conversation, once the list is loaded', () => {
    const store = createCollectionsStore({ storage: memoryStorage() });
    expect(getEveryCollectionId(store)).toBeUndefined();
    store.getState().setKnown([collection('a'), collection('b', 'b', { deleting: true }), collection('c')]);
    expect(getEveryCollectionId(store)).toEqual(['a', 'c']);
  });

  it('ignores a stored selection that is not a list of ids', async () => {
    const storage = memoryStorage({
      [COLLECTIONS_STORAGE_KEY]: JSON.stringify({ state: { selected: 'a' }, version: 1 }),
    });
    const store = createCollectionsStore({ storage });
    await store.persist.rehydrate();
    expect(store.getState().selected).toEqual([]);
  });

  it('loads every page of collections and forgets picked ones that are gone or being deleted', async () => {
    const store = createCollectionsStore({ storage: memoryStorage() });
    store.getState().select(['c2', 'gone', 'c4']);
    const all = [
      collection('c1'),
      collection('c2'),
      collection('c3'),
      collection('c4', 'c4', { deleting: true }),
    ];
    const { api, calls } = pages(all, 2);

    await loadCollections(api, store);

    expect(calls.map((call) => call.page)).toEqual([1, 2]);
    expect(store.getState().known?.map((item) => item.id)).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(store.getState().loadState).toBe('ready');
    expect(store.getState().selected).toEqual(['c2']);
  });

  it("shows an opened conversation's collections, or every collection when it searches them all", async () => {
    const store = createCollectionsStore({ storage: memoryStorage() });
    await loadCollections(pages([collection('c1'), collection('c2')], 10).api, store);

    store.getState().showConversation(['c2']);
    expect(store.getState().selected).toEqual(['c2']);
    store.getState().showConversation(['c1', 'c2']);
    expect(store.getState().selected).toEqual([]);
  });

  it('keeps only the latest load when another key started one meanwhile', async () => {
    const store = createCollectionsStore({ storage: memoryStorage() });
    const page = (items: Collection[]) => ({
      items,
      page: 1,
      limit: 100,
      total: items.length,
      totalPages: 1,
    });
    let answerFirst: () => void = () => undefined;
    const slow = {
      listCollections: () =>
        new Promise<ReturnType<typeof page>>((resolve) => {
          answerFirst = () => resolve(page([collection('seen-by-old-key')]));
        }),
    };
    const first = loadCollections(slow, store, 'old-key');
    await loadCollections(pages([collection('seen-by-new-key')], 10).api, store, 'new-key');
    answerFirst();
    await first;

    expect(store.getState().known?.map((item) => item.id)).toEqual(['seen-by-new-key']);
    expect(store.getState().loadedFor).toBe('new-key');
  });

  it('says when the server has no collections, keeping the pick', async () => {
    const store = createCollectionsStore({ storage: memoryStorage() });
    store.getState().select(['c1']);
    const missing = new ApiError(
      'not_found',
      "Collections aren't available on this server yet.",
      'GET /collections → 404',
      404,
      true,
    );
    await loadCollections(
      {
        listCollections: async () => {
          throw missing;
        },
      },
      store,
    );
    expect(store.getState()).toMatchObject({
      loadState: 'error',
      missing: true,
      loadError: "Collections aren't available on this server yet.",
      selected: ['c1'],
    });
  });
});

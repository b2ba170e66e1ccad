import type { SearchResponse } from '../lib/api-types';
import { createChatStore, selectIsBusy } from './chat.store';

function response(overrides: Partial<SearchResponse> = {}): SearchResponse {
  return {
    results: [
      {
        chunkId: 'c1',
        documentId: 'd1',
        documentTitle: 'Handbook',
        headingPath: ['Leave', 'Parental leave'],
        anchor: 'parental-leave',
        text: 'Parents get sixteen weeks.',
        score: 0.82,
        provenance: [{ branch: 'bm25', rank: 1, score: 7.1 }],
      },
    ],
    expansions: [],
    hyde: null,
    timings: { total: 12 },
    warnings: [],
    belowThreshold: false,
    ...overrides,
  };
}

describe('chat store', () => {
  it('adds the question and a pending assistant turn', () => {
    const store = createChatStore(() => 1000);
    const id = store.getState().ask('How long is parental leave?');
    const [user, assistant] = store.getState().messages;

    expect(user).toMatchObject({ role: 'user', status: 'done', text: 'How long is parental leave?' });
    expect(assistant).toMatchObject({ id, role: 'assistant', status: 'pending' });
    expect(selectIsBusy(store.getState())).toBe(true);
  });

  it('resolves the assistant turn with the passages found', () => {
    const store = createChatStore();
    const id = store.getState().ask('q');
    store.getState().resolve(id, response());

    const assistant = store.getState().messages[1];
    expect(assistant.status).toBe('done');
    expect(assistant.text).toBe('Found 1 relevant passage.');
    expect(assistant.search?.results[0].chunkId).toBe('c1');
    expect(selectIsBusy(store.getState())).toBe(false);
  });

  it("says the documents don't say when nothing clears the threshold", () => {
    const store = createChatStore();
    const id = store.getState().ask('q');
    store.getState().resolve(id, response({ results: [], belowThreshold: true }));

    expect(store.getState().messages[1].text).toBe("The documents don't say.");
  });

  it('records a failure sentence and ignores late updates to a settled turn', () => {
    const store = createChatStore();
    const id = store.getState().ask('q');
    store.getState().fail(id, "Couldn't reach the Lumina server.");
    store.getState().resolve(id, response());

    expect(store.getState().messages[1]).toMatchObject({
      status: 'error',
      error: "Couldn't reach the Lumina server.",
    });
    expect(store.getState().messages[1].search).toBeUndefined();
  });

  it('clears the conversation', () => {
    const store = createChatStore();
    store.getState().ask('q');
    store.getState().clear();
    expect(store.getState().messages).toEqual([]);
  });
});

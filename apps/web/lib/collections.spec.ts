import { MAX_SEARCHED_COLLECTIONS } from '@lumina/shared';
import {
  chatCollectionIds,
  collectionName,
  defaultUploadCollectionId,
  everyLiveCollectionId,
  joinNames,
  normaliseSelection,
  reconcileSelection,
  requestCollectionIds,
  searchedSentence,
  selectionLabel,
  selectionOfConversation,
  toggleCollection,
  traceCollectionsLabel,
  writableCollections,
} from './collections';
import { collection } from './testing/collections';

const runbooks = collection('c-runbooks-1', 'Runbooks');
const handbook = collection('c-handbook-2', 'Handbook');
const policies = collection('c-policies-3', 'Policies');
const fallback = collection('c-default-0', 'Default', { slug: 'default' });
const known = [fallback, runbooks, handbook, policies];

describe('the selection and the request', () => {
  it('sends no collectionIds when none is picked (every collection), the picked ids otherwise', () => {
    expect(requestCollectionIds([])).toBeUndefined();
    expect(requestCollectionIds(['c-runbooks-1'])).toEqual(['c-runbooks-1']);
    expect(requestCollectionIds(['c-runbooks-1', 'c-handbook-2', 'c-runbooks-1', ''])).toEqual([
      'c-runbooks-1',
      'c-handbook-2',
    ]);
  });

  it('never sends more collections than a search may name', () => {
    const many = Array.from({ length: MAX_SEARCHED_COLLECTIONS + 5 }, (_, index) => `c-${index}`);
    expect(requestCollectionIds(many)).toHaveLength(MAX_SEARCHED_COLLECTIONS);
  });

  it('picks and unpicks one collection, keeping the order of picking', () => {
    let selected = toggleCollection([], 'c-handbook-2', true);
    selected = toggleCollection(selected, 'c-runbooks-1', true);
    selected = toggleCollection(selected, 'c-handbook-2', true);
    expect(selected).toEqual(['c-runbooks-1', 'c-handbook-2']);
    expect(toggleCollection(selected, 'c-runbooks-1', false)).toEqual(['c-handbook-2']);
    expect(toggleCollection(['c-handbook-2'], 'c-handbook-2', false)).toEqual([]);
  });

  it('cleans up whatever storage held', () => {
    expect(normaliseSelection(undefined)).toEqual([]);
    expect(normaliseSelection('c-runbooks-1')).toEqual([]);
    expect(normaliseSelection(['c-runbooks-1', 7, null, ' ', 'c-runbooks-1'])).toEqual(['c-runbooks-1']);
  });

  it('drops collections that are gone or being deleted once the list is known', () => {
    const deleting = collection('c-old-9', 'Old', { deleting: true });
    expect(reconcileSelection(['c-runbooks-1', 'c-gone-7', 'c-old-9'], [...known, deleting])).toEqual([
      'c-runbooks-1',
    ]);
    expect(reconcileSelection(['c-gone-7'], known)).toEqual([]);
  });
});

describe('what a chat question sends', () => {
  const every = everyLiveCollectionId([...known, collection('c-old-9', 'Old', { deleting: true })]);

  it('knows every live collection once the list is loaded, and only when a request may name them all', () => {
    expect(every).toEqual(['c-default-0', 'c-runbooks-1', 'c-handbook-2', 'c-policies-3']);
    expect(everyLiveCollectionId(null)).toBeUndefined();
    expect(everyLiveCollectionId([collection('c-old-9', 'Old', { deleting: true })])).toBeUndefined();
    const many = Array.from({ length: MAX_SEARCHED_COLLECTIONS + 1 }, (_, index) =>
      collection(`c-${index}`, `C${index}`),
    );
    expect(everyLiveCollectionId(many)).toBeUndefined();
    expect(everyLiveCollectionId(many.slice(1))).toHaveLength(MAX_SEARCHED_COLLECTIONS);
  });

  it('sends the picked collections, in a new conversation or an open one', () => {
    expect(chatCollectionIds(['c-handbook-2'], false, every)).toEqual(['c-handbook-2']);
    expect(chatCollectionIds(['c-handbook-2'], true, every)).toEqual(['c-handbook-2']);
  });

  it('sends nothing for "All" in a new conversation: the server searches every collection', () => {
    expect(chatCollectionIds([], false, every)).toBeUndefined();
  });

  it('names every live collection for "All" in an open conversation, nothing while they are unknown', () => {
    expect(chatCollectionIds([], true, every)).toEqual(every);
    expect(chatCollectionIds([], true, undefined)).toBeUndefined();
  });
});

describe("a conversation's collections", () => {
  it('shows the collections it searches', () => {
    expect(selectionOfConversation(['c-handbook-2'], known)).toEqual(['c-handbook-2']);
    expect(selectionOfConversation(['c-handbook-2'], null)).toEqual(['c-handbook-2']);
  });

  it('shows "every collection" when it searches all there are, or names none', () => {
    expect(
      selectionOfConversation(
        known.map((item) => item.id),
        known,
      ),
    ).toEqual([]);
    expect(selectionOfConversation([], known)).toEqual([]);
    // A collection being deleted is searched no more, so it is not needed for "all".
    const deleting = collection('c-old-9', 'Old', { deleting: true });
    expect(
      selectionOfConversation(
        known.map((item) => item.id),
        [...known, deleting],
      ),
    ).toEqual([]);
  });
});

describe('names of the searched collections', () => {
  it('joins names the way a sentence does', () => {
    expect(joinNames([])).toBe('');
    expect(joinNames(['A'])).toBe('A');
    expect(joinNames(['A', 'B'])).toBe('A and B');
    expect(joinNames(['A', 'B', 'C'])).toBe('A, B and C');
    expect(joinNames(['A', 'B', 'C', 'D'])).toBe('A, B and 2 more');
    expect(joinNames(['A', 'B', 'C', 'D'], 4)).toBe('A, B, C and D');
  });

  it('labels the switcher', () => {
    expect(selectionLabel([], known)).toBe('All collections');
    expect(selectionLabel(['c-runbooks-1'], known)).toBe('Runbooks');
    expect(selectionLabel(['c-runbooks-1', 'c-handbook-2'], known)).toBe('Runbooks and Handbook');
    expect(selectionLabel(['c-default-0', 'c-runbooks-1', 'c-handbook-2', 'c-policies-3'], known)).toBe(
      'Default, Runbooks and 2 more',
    );
  });

  it('names a collection the list does not know by the start of its id', () => {
    expect(collectionName('1a2b3c4d-0000-4000-8000-000000000000', known)).toBe('collection 1a2b3c4d');
    expect(collectionName('c-runbooks-1', null)).toBe('collection c-runboo');
  });

  it('says which collections the next question searches', () => {
    expect(searchedSentence([], known)).toBe('Searching every collection.');
    expect(searchedSentence(['c-handbook-2'], known)).toBe('Searching the collection: Handbook.');
    expect(searchedSentence(['c-runbooks-1', 'c-handbook-2', 'c-policies-3', 'c-default-0'], known)).toBe(
      'Searching 4 collections: Runbooks, Handbook, Policies and Default.',
    );
  });

  it('names every collection a trace searched, and none for an answer from general knowledge', () => {
    expect(traceCollectionsLabel(['c-runbooks-1', 'c-handbook-2'], known)).toBe('Runbooks, Handbook');
    expect(traceCollectionsLabel(['c-runbooks-1', 'deadbeef-0000'], known)).toBe(
      'Runbooks, collection deadbeef',
    );
    expect(traceCollectionsLabel([], known)).toBe('none');
  });
});

describe('where uploads go', () => {
  it('defaults to the "default"-slug collection', () => {
    expect(defaultUploadCollectionId(known)).toBe('c-default-0');
  });

  it('falls back to the first collection that takes documents', () => {
    const deletingDefault = collection('c-default-0', 'Default', { slug: 'default', deleting: true });
    expect(defaultUploadCollectionId([deletingDefault, runbooks])).toBe('c-runbooks-1');
    expect(defaultUploadCollectionId([])).toBe('');
  });

  it('offers only collections that are not being deleted', () => {
    const deleting = collection('c-old-9', 'Old', { deleting: true });
    expect(writableCollections([runbooks, deleting]).map((item) => item.id)).toEqual(['c-runbooks-1']);
  });
});

/**
 * Collections as the screens use them: which ones a question searches (a selection; none picked means
 * every collection), what a request carries for it, and how the searched ones are named.
 */
import { MAX_SEARCHED_COLLECTIONS } from '@lumina/shared';
import type { Collection } from '@lumina/shared';

/** The slug of the collection uploads go to when none is chosen. */
export const DEFAULT_COLLECTION_SLUG = 'default';

type Named = Pick<Collection, 'id' | 'name'>;
type Live = Pick<Collection, 'id' | 'deleting'>;

/** A stored selection cleaned up: distinct non-empty ids, at most MAX_SEARCHED_COLLECTIONS. */
export function normaliseSelection(input: unknown): string[] {
  if (!Array.isArray(input)) return [];
  const ids = input.filter((id): id is string => typeof id === 'string' && id.trim() !== '');
  return [...new Set(ids)].slice(0, MAX_SEARCHED_COLLECTIONS);
}

/** The selection with `id` picked or not (in the order they were picked). */
export function toggleCollection(selected: readonly string[], id: string, picked: boolean): string[] {
  const others = selected.filter((candidate) => candidate !== id);
  return normaliseSelection(picked ? [...others, id] : others);
}

/** The `collectionIds` a search or a chat sends: the picked ids, or nothing (every collection). */
export function requestCollectionIds(selected: readonly string[]): string[] | undefined {
  const ids = normaliseSelection(selected);
  return ids.length > 0 ? ids : undefined;
}

/**
 * Every live collection's id (not those being deleted), for a request that must name them all; undefined
 * when the list is not known yet, holds none, or holds more than a request may name.
 */
export function everyLiveCollectionId(known: readonly Live[] | null): string[] | undefined {
  if (!known) return undefined;
  const ids = [
    ...new Set(known.filter((collection) => !collection.deleting).map((collection) => collection.id)),
  ];
  return ids.length > 0 && ids.length <= MAX_SEARCHED_COLLECTIONS ? ids : undefined;
}

/**
 * The `collectionIds` a chat question sends. Picked collections are sent as they are. "All collections"
 * sends nothing in a new conversation (the server then searches every collection the key reads), but in
 * an open conversation it names every live collection: without ids the server searches a follow-up in
 * the collections the conversation remembers, which may be fewer than all. When every live collection is
 * unknown (`every` undefined), nothing is sent.
 */
export function chatCollectionIds(
  selected: readonly string[],
  inConversation: boolean,
  every: readonly string[] | undefined,
): string[] | undefined {
  const picked = requestCollectionIds(selected);
  if (picked) return picked;
  return inConversation ? requestCollectionIds(every ?? []) : undefined;
}

/**
 * Drops from a selection the collections that are gone or being deleted (they are searched no more),
 * once the full list is known.
 */
export function reconcileSelection(selected: readonly string[], known: readonly Live[]): string[] {
  const live = new Set(known.filter((collection) => !collection.deleting).map((collection) => collection.id));
  return normaliseSelection(selected.filter((id) => live.has(id)));
}

/**
 * The selection that shows a conversation's collections: none picked when it searches every collection
 * there is (or names none), else its ids.
 */
export function selectionOfConversation(
  collectionIds: readonly string[],
  known: readonly Live[] | null,
): string[] {
  const ids = normaliseSelection(collectionIds);
  if (!known) return ids;
  const live = known.filter((collection) => !collection.deleting);
  const everyOne = live.length > 0 && live.every((collection) => ids.includes(collection.id));
  return everyOne ? [] : ids;
}

/** A collection's name; one the list does not know (deleted since, or not loaded yet) by its id's start. */
export function collectionName(id: string, known: readonly Named[] | null): string {
  const found = known?.find((collection) => collection.id === id);
  return found ? found.name : `collection ${id.slice(0, 8)}`;
}

/** "A", "A and B", "A, B and C", "A, B and 2 more". */
export function joinNames(names: readonly string[], shown = 3): string {
  if (names.length <= 1) return names[0] ?? '';
  if (names.length > shown) {
    const kept = shown - 1;
    return `${names.slice(0, kept).join(', ')} and ${names.length - kept} more`;
  }
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The switcher's label: "All collections", "Runbooks", "Runbooks and Handbook", … */
export function selectionLabel(selected: readonly string[], known: readonly Named[] | null): string {
  const ids = normaliseSelection(selected);
  if (ids.length === 0) return 'All collections';
  return joinNames(ids.map((id) => collectionName(id, known)));
}

/** A sentence saying which collections the next question searches. */
export function searchedSentence(selected: readonly string[], known: readonly Named[] | null): string {
  const ids = normaliseSelection(selected);
  if (ids.length === 0) return 'Searching every collection.';
  const names = ids.map((id) => collectionName(id, known));
  return `Searching ${ids.length === 1 ? 'the collection' : `${ids.length} collections`}: ${joinNames(names, names.length)}.`;
}

/** The collections a trace searched, every one by name ("none" for an answer from general knowledge). */
export function traceCollectionsLabel(
  collectionIds: readonly string[],
  known: readonly Named[] | null,
): string {
  if (collectionIds.length === 0) return 'none';
  return collectionIds.map((id) => collectionName(id, known)).join(', ');
}

/** The collections that take new documents (not those being deleted). */
export function writableCollections<T extends Live>(known: readonly T[]): T[] {
  return known.filter((collection) => !collection.deleting);
}

/** Where an upload goes by default: the "default"-slug collection, else the first that takes documents. */
export function defaultUploadCollectionId(
  known: readonly Pick<Collection, 'id' | 'slug' | 'deleting'>[],
): string {
  const writable = writableCollections(known);
  return (
    (writable.find((collection) => collection.slug === DEFAULT_COLLECTION_SLUG) ?? writable[0])?.id ?? ''
  );
}

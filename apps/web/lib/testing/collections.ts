import type { Collection } from '@lumina/shared';

/** A collection as the API lists it, empty unless `change` says otherwise (for specs). */
export function collection(id: string, name = id, change: Partial<Collection> = {}): Collection {
  return {
    id,
    name,
    slug: name.toLowerCase(),
    description: '',
    documentCount: 0,
    chunkCount: 0,
    bankCount: 0,
    deleting: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...change,
  };
}

import { filled, objectError, pageQuerySchema, text, uuid, z } from './contract/zod';

/**
 * Collections: knowledge bases with their own documents, question banks, evaluations and rerankers.
 * Every document belongs to exactly one; a search or a chat reads the collections it names (by default
 * every collection the caller may read).
 */

export const MAX_COLLECTION_NAME_CHARS = 120;
export const MAX_COLLECTION_DESCRIPTION_CHARS = 1000;
/** At most this many collections in one search or chat. */
export const MAX_SEARCHED_COLLECTIONS = 100;

/** A slug: lower-case letters and digits in words joined by single hyphens. */
export const COLLECTION_SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The slug a name gets when none is given: "On-call Runbooks (2026)" → "on-call-runbooks-2026". */
export function slugFromName(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'collection'
  );
}

const trimmed = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' ? value.trim() : value), schema);

const nameField = trimmed(filled('name', MAX_COLLECTION_NAME_CHARS));
const slugField = z
  .string({ error: 'slug must be a string' })
  .max(60, { error: 'slug must be at most 60 characters' })
  .regex(COLLECTION_SLUG, {
    error: 'slug must be lower-case letters and digits in words joined by single hyphens, e.g. on-call',
  });
const descriptionField = text('description', MAX_COLLECTION_DESCRIPTION_CHARS);

/** Body of POST /collections. */
export const collectionInputSchema = z
  .strictObject(
    {
      name: nameField,
      slug: slugField.optional().meta({ description: 'Made from the name when absent' }),
      description: descriptionField.optional(),
    },
    { error: objectError('the body must be an object: { name, slug?, description? }') },
  )
  .meta({ example: { name: 'On-call runbooks', description: 'Failover, paging and escalation.' } });
export type CollectionInput = z.infer<typeof collectionInputSchema>;

/** Body of PATCH /collections/:id: rename, re-slug or describe. */
export const collectionPatchSchema = z
  .strictObject(
    { name: nameField.optional(), slug: slugField.optional(), description: descriptionField.optional() },
    { error: objectError('the body must be an object: { name?, slug?, description? }') },
  )
  .check(
    z.refine((patch) => Object.keys(patch).length > 0, {
      error: 'name one of name, slug or description to change',
    }),
  )
  .meta({ example: { name: 'Runbooks' } });
export type CollectionPatch = z.infer<typeof collectionPatchSchema>;

/** GET /collections: a page, oldest first, optionally by words in the name. */
export const listCollectionsQuerySchema = pageQuerySchema.extend({
  search: text('search', 200).optional().meta({ description: 'Words in the name (case-insensitive)' }),
});
export type ListCollectionsQuery = z.infer<typeof listCollectionsQuerySchema>;

const timestamp = z.string().meta({ format: 'date-time' });

/** A collection in lists and answers. */
export const collectionSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  documentCount: z.number(),
  chunkCount: z.number(),
  bankCount: z.number(),
  /** A deletion job is removing it: it takes no new documents and is searched no more. */
  deleting: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type Collection = z.infer<typeof collectionSchema>;

/** The answer of DELETE /collections/:id (202): the job that removes it with everything in it. */
export const collectionDeletionSchema = z.object({
  id: z.string(),
  deleting: z.literal(true),
  jobId: z.string(),
});
export type CollectionDeletion = z.infer<typeof collectionDeletionSchema>;

/** Body of POST /documents/:id/move. */
export const moveDocumentRequestSchema = z.strictObject(
  { collectionId: uuid('collectionId', 'a collection id') },
  { error: objectError('the body must be an object: { collectionId }') },
);
export type MoveDocumentRequest = z.infer<typeof moveDocumentRequestSchema>;

/** `collectionIds` of a search or a chat: which collections to read (absent: every one the key may read). */
export const collectionIdsSchema = z
  .array(uuid('collectionIds', 'collection ids'), {
    error: 'collectionIds must be an array of collection ids',
  })
  .min(1, { error: 'collectionIds must name at least one collection (or be left out: every one)' })
  .max(MAX_SEARCHED_COLLECTIONS, {
    error: `collectionIds must name at most ${MAX_SEARCHED_COLLECTIONS} collections`,
  })
  .meta({ description: 'The collections to search; absent: every collection the key may read' });

import { queryInt, z } from './contract/zod';
import { chunkViewSchema } from './documents';

/** How many passages on each side of the asked one GET /chunks/:id gives at most, and when not told. */
export const MAX_PASSAGE_NEIGHBOURS = 5;
export const DEFAULT_PASSAGE_NEIGHBOURS = 1;

/** GET /chunks/:id: `?neighbours=` passages of the same document before and after it. */
export const passageQuerySchema = z.strictObject({
  neighbours: queryInt('neighbours', 0, MAX_PASSAGE_NEIGHBOURS)
    .optional()
    .meta({
      description: `Passages of the same document to give on each side (0–${MAX_PASSAGE_NEIGHBOURS}, default ${DEFAULT_PASSAGE_NEIGHBOURS})`,
      example: DEFAULT_PASSAGE_NEIGHBOURS,
    }),
});
export type PassageQuery = z.infer<typeof passageQuerySchema>;

/** The document a passage belongs to. */
export const passageDocumentSchema = z.object({
  id: z.string(),
  title: z.string(),
  collectionId: z.string(),
});
export type PassageDocument = z.infer<typeof passageDocumentSchema>;

/** The answer of GET /chunks/:id: a passage, its document, and its neighbours in reading order. */
export const passageViewSchema = z.object({
  chunk: chunkViewSchema,
  document: passageDocumentSchema,
  /** The passages just before it, in reading order (the nearest last). */
  before: z.array(chunkViewSchema),
  /** The passages just after it, in reading order (the nearest first). */
  after: z.array(chunkViewSchema),
});
export type PassageView = z.infer<typeof passageViewSchema>;

/**
 * The tools Lumina's MCP server offers (POST /mcp, and the stdio command): each tool's arguments and
 * its structured result, built from the API's own fields so that a limit or a message is stated once.
 * The MCP SDK validates a call's arguments with these schemas and lists them (as JSON Schema) to clients.
 */
import { answerGeneratorSchema, citationSchema, MAX_CHAT_MESSAGE_CHARS, pageRangeSchema } from './chat';
import { collectionIdsSchema } from './collections';
import { int, MAX_PAGE, pageOf, text, uuid, z } from './contract/zod';
import { documentViewSchema, listDocumentsQuerySchema } from './documents';
import { DEFAULT_PASSAGE_NEIGHBOURS, MAX_PASSAGE_NEIGHBOURS, passageViewSchema } from './passages';
import { searchRequestSchema } from './search';
import { settingsOverridesSchema } from './settings';

/** The most documents one `list_documents` call lists (the list endpoints' cap). */
export const MAX_TOOL_PAGE_LIMIT = 100;

/** The most passages a read of `lumina://documents/{id}` holds; a longer document is cut, and says so. */
export const MAX_RESOURCE_PASSAGES = 2000;

const settings = settingsOverridesSchema.optional().meta({
  description:
    'Retrieval settings, each optional (defaults: ranker bm25, topK 6, no expansion, HyDE or rerank): ' +
    'ranker (bm25 | dense | hybrid), enableQueryExpansion, enableHyDE (true, false or "adaptive"), ' +
    'enableRerank, topK (1–50), candidateK, minScore, documentIds, expansionCount',
});

/** The `{id}` of the resource `lumina://documents/{id}`. */
export const documentResourceIdSchema = uuid('id', 'a document id');

/** Arguments of `search`. */
export const searchToolInputSchema = z.strictObject({
  query: searchRequestSchema.shape.query.meta({ description: 'What to look for: a question or keywords' }),
  settings,
  documentIds: settingsOverridesSchema.shape.documentIds.meta({
    description: 'Search only these documents (ids from list_documents); it replaces settings.documentIds',
  }),
  collectionIds: collectionIdsSchema.optional(),
});
export type SearchToolInput = z.infer<typeof searchToolInputSchema>;

/** Arguments of `ask`. */
export const askToolInputSchema = z.strictObject({
  question: text('question', MAX_CHAT_MESSAGE_CHARS)
    .min(1, { error: 'question must not be empty' })
    .meta({ description: 'The question, in any language the documents are in' }),
  settings,
  collectionIds: collectionIdsSchema.optional(),
  conversationId: uuid('conversationId', 'a conversation id').optional().meta({
    description: 'Ask a follow-up in this conversation (the conversationId an earlier ask returned)',
  }),
});
export type AskToolInput = z.infer<typeof askToolInputSchema>;

/** Arguments of `get_passage`. */
export const getPassageToolInputSchema = z.strictObject({
  chunkId: uuid('chunkId', 'a chunk id').meta({
    description: 'The chunkId of a search passage or an ask citation',
  }),
  neighbours: int('neighbours', 0, MAX_PASSAGE_NEIGHBOURS)
    .default(DEFAULT_PASSAGE_NEIGHBOURS)
    .meta({
      description: `Passages of the same document to add on each side (0–${MAX_PASSAGE_NEIGHBOURS})`,
    }),
});
export type GetPassageToolInput = z.infer<typeof getPassageToolInputSchema>;

/** Arguments of `list_documents`. */
export const listDocumentsToolInputSchema = z.strictObject({
  page: int('page', 1, MAX_PAGE).optional().meta({ description: '1-based page (default 1)' }),
  limit: int('limit', 1, MAX_TOOL_PAGE_LIMIT)
    .optional()
    .meta({ description: `Documents per page (default 20, at most ${MAX_TOOL_PAGE_LIMIT})` }),
  search: listDocumentsQuerySchema.shape.search,
  collectionId: listDocumentsQuerySchema.shape.collectionId,
  status: listDocumentsQuerySchema.shape.status,
});
export type ListDocumentsToolInput = z.infer<typeof listDocumentsToolInputSchema>;

const link = z.string().meta({
  description:
    "The passage in the API: its document's page of passages that holds it (GET /documents/:id/chunks?chunk=)",
});

/** A passage `search` found. */
export const toolPassageSchema = z.object({
  /** 1 for the best. */
  rank: z.number(),
  chunkId: z.string(),
  documentId: z.string(),
  title: z.string(),
  headingPath: z.array(z.string()),
  pages: pageRangeSchema.optional(),
  score: z.number(),
  text: z.string(),
  link,
});
export type ToolPassage = z.infer<typeof toolPassageSchema>;

/** The structured result of `search`. */
export const searchToolOutputSchema = z.object({
  query: z.string(),
  /** The collections searched. */
  collectionIds: z.array(z.string()),
  passages: z.array(toolPassageSchema),
  /** Nothing scored above the relevance threshold. */
  belowThreshold: z.boolean(),
  warnings: z.array(z.string()),
});
export type SearchToolOutput = z.infer<typeof searchToolOutputSchema>;

/** A passage an `ask` answer cites as `[marker]`. */
export const toolCitationSchema = citationSchema
  .pick({ marker: true, chunkId: true, documentId: true, title: true, headingPath: true, pages: true })
  .extend({ link });
export type ToolCitation = z.infer<typeof toolCitationSchema>;

/** The structured result of `ask`. */
export const askToolOutputSchema = z.object({
  /** The answer as the chat streams it, markers included; or the not-found sentence. */
  answer: z.string(),
  notFound: z.boolean(),
  generator: answerGeneratorSchema,
  citations: z.array(toolCitationSchema),
  conversationId: z.string(),
  messageId: z.string(),
  /** GET /messages/:id/trace of the answer: what was searched, found and sent to the model. */
  trace: z.string(),
});
export type AskToolOutput = z.infer<typeof askToolOutputSchema>;

/** The structured result of `get_passage`. */
export const getPassageToolOutputSchema = passageViewSchema.extend({ link });
export type GetPassageToolOutput = z.infer<typeof getPassageToolOutputSchema>;

/** A document as `list_documents` lists it. */
export const toolDocumentSchema = documentViewSchema.pick({
  id: true,
  title: true,
  status: true,
  collectionId: true,
  chunkCount: true,
});
export type ToolDocument = z.infer<typeof toolDocumentSchema>;

/** The structured result of `list_documents`. */
export const listDocumentsToolOutputSchema = pageOf(toolDocumentSchema);
export type ListDocumentsToolOutput = z.infer<typeof listDocumentsToolOutputSchema>;

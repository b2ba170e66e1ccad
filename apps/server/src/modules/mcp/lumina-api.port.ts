import type {
  AnswerGenerator,
  ChunkView,
  Citation,
  DocumentView,
  ListDocumentsQuery,
  Page,
  PassageView,
  SearchResponse,
  SettingsOverrides,
} from '@lumina/shared';

/**
 * What Lumina's MCP tools need of Lumina: the port the tools are written against. The API serves it in
 * its own process (InProcessLumina, with the request's principal); the stdio command serves it over
 * HTTP (HttpLumina, with an API key). Either way the same rules apply: a key reads only the collections
 * it is granted, and what it may not read is "not found".
 */
export interface LuminaApi {
  search(call: SearchCall, signal: AbortSignal): Promise<SearchResponse>;
  ask(call: AskCall, signal: AbortSignal): Promise<AskAnswer>;
  getPassage(chunkId: string, neighbours: number, signal: AbortSignal): Promise<PassageView>;
  listDocuments(query: ListDocumentsQuery, signal: AbortSignal): Promise<Page<DocumentView>>;
  /** The document and its first `maxPassages` passages in reading order. */
  readDocument(documentId: string, maxPassages: number, signal: AbortSignal): Promise<DocumentText>;
}

export interface SearchCall {
  query: string;
  settings?: SettingsOverrides;
  collectionIds?: string[];
}

export interface AskCall {
  question: string;
  settings?: SettingsOverrides;
  collectionIds?: string[];
  conversationId?: string;
}

/** A complete answer, as POST /chat streams it. */
export interface AskAnswer {
  /** The answer's text (every `token` event), markers included; or the not-found sentence. */
  text: string;
  notFound: boolean;
  generator: AnswerGenerator;
  citations: Citation[];
  conversationId: string;
  messageId: string;
}

export interface DocumentText {
  document: DocumentView;
  /** In reading order; at most the number asked for. */
  passages: ChunkView[];
  /** How many passages the document has. */
  total: number;
}

/**
 * The API said no: `status` is the HTTP status it answered with, `code` the error code of its body, and
 * the message the API's own sentence. Without a status (null), nothing answered with one: an answer that
 * failed after its stream began (`code` from the chat's `error` event), or an API that could not be
 * reached; the message then says so itself.
 */
export class LuminaApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string,
  ) {
    super(message);
    this.name = 'LuminaApiError';
  }
}

/** The widest page of passages the API gives. */
export const PASSAGE_PAGE_LIMIT = 100;

/** A document's first `max` passages, read a page of PASSAGE_PAGE_LIMIT at a time. */
export async function readPassagePages(
  document: DocumentView,
  max: number,
  page: (page: number, limit: number) => Promise<Page<ChunkView>>,
): Promise<DocumentText> {
  const passages: ChunkView[] = [];
  let total = 0;
  for (let number = 1; passages.length < max; number += 1) {
    const answer = await page(number, PASSAGE_PAGE_LIMIT);
    total = answer.total;
    passages.push(...answer.items);
    if (answer.items.length === 0 || number >= answer.totalPages) break;
  }
  return { document, passages: passages.slice(0, max), total };
}

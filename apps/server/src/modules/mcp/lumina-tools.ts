import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import {
  askToolInputSchema,
  askToolOutputSchema,
  documentResourceIdSchema,
  getPassageToolInputSchema,
  getPassageToolOutputSchema,
  listDocumentsToolInputSchema,
  listDocumentsToolOutputSchema,
  MAX_RESOURCE_PASSAGES,
  MAX_TOOL_PAGE_LIMIT,
  NOT_FOUND_SENTENCE,
  searchToolInputSchema,
  searchToolOutputSchema,
  sourceLabel,
} from '@lumina/shared';
import type {
  AskToolOutput,
  ChunkView,
  GetPassageToolOutput,
  ListDocumentsToolOutput,
  SearchToolOutput,
} from '@lumina/shared';
import { LuminaApiError } from './lumina-api.port';
import type { DocumentText, LuminaApi } from './lumina-api.port';

/**
 * Lumina's MCP tools, written against the LuminaApi port: the API serves them at POST /mcp with the
 * services in its own process, the stdio command (src/mcp.ts) with the REST API over HTTP.
 *
 * Errors, the same on both transports:
 * - Invalid arguments: the SDK validates them with the tool's schema (libs/shared/src/mcp.ts) before the
 *   tool runs and answers a tool error (`isError: true`) whose text holds the schema's sentence: "MCP
 *   error -32602: Input validation error: Invalid arguments for tool get_passage: chunkId must be a
 *   chunk id (a UUID) at chunkId". It catches its own McpError and wraps it, as it wraps anything a
 *   tool throws (SDK 1.32; only UrlElicitationRequired passes through as a JSON-RPC error).
 * - What the API refuses (400, 403, 404, 409, 429, 503…) or an answer that fails mid-way: a tool error
 *   whose text is the status and the API's own sentence, e.g. "Not found (404): No chunk has the id …".
 *   A collection the key may not read is "not found", as on the REST API.
 * - Anything else (a bug, the database gone): a tool error that says only that; `onUnexpected` is told
 *   the detail (the server's log).
 * Tools therefore never throw. Resources have no such result: reading `lumina://documents/{id}` fails with
 * a JSON-RPC error (McpError): InvalidParams with the API's sentence for a malformed or unknown id, and
 * InternalError otherwise.
 */
export interface LuminaToolsOptions {
  /** The REST API's base URL (`http://127.0.0.1:3000`): links to passages and traces start with it. */
  baseUrl: string;
  /** Told of a failure that is not the API's answer, whose detail the client is not shown. */
  onUnexpected?: (error: unknown) => void;
}

export const LUMINA_MCP_SERVER = { name: 'lumina', title: 'Lumina', version: '0.1.0' };

const INSTRUCTIONS =
  'Lumina answers questions from the documents an organisation gave it, with citations to the exact ' +
  'passages. Use `search` to find passages, `ask` for an answer grounded in them, `get_passage` to read a ' +
  'cited passage with its context, and `list_documents` to see what there is. Cite the links the tools ' +
  'give. When `ask` says the documents do not contain the answer, say so rather than answering as if ' +
  'Lumina had.';

/** The tools and the document resource, on a new MCP server. */
export function createLuminaMcpServer(api: LuminaApi, options: LuminaToolsOptions): McpServer {
  const server = new McpServer(LUMINA_MCP_SERVER, { instructions: INSTRUCTIONS });
  registerLuminaTools(server, api, options);
  return server;
}

export function registerLuminaTools(server: McpServer, api: LuminaApi, options: LuminaToolsOptions): void {
  const base = options.baseUrl.replace(/\/+$/, '');
  const passageLink = (documentId: string, chunkId: string) =>
    `${base}/documents/${documentId}/chunks?chunk=${chunkId}`;
  const respond = <T extends Record<string, unknown>>(work: () => Promise<T>, render: (value: T) => string) =>
    toolResult(work, render, options.onUnexpected);

  server.registerTool(
    'search',
    {
      title: 'Search the documents',
      description:
        'Search the documents this API key may read and return the best-matching passages, best first: ' +
        'each with its document title, heading path, pages (PDFs), score, text, chunkId (for get_passage) ' +
        'and a link to cite. Default ranking: BM25, top 6; `settings` switch to dense or hybrid ranking, ' +
        'query expansion, HyDE or reranking. `documentIds` and `collectionIds` narrow the search.',
      inputSchema: searchToolInputSchema,
      outputSchema: searchToolOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query, settings, documentIds, collectionIds }, extra) =>
      respond(async (): Promise<SearchToolOutput> => {
        const result = await api.search(
          { query, settings: documentIds ? { ...settings, documentIds } : settings, collectionIds },
          extra.signal,
        );
        return {
          query: result.query,
          collectionIds: result.collectionIds,
          passages: result.results.map((hit, index) => ({
            rank: index + 1,
            chunkId: hit.chunkId,
            documentId: hit.documentId,
            title: hit.documentTitle,
            headingPath: hit.headingPath,
            ...(hit.pages ? { pages: hit.pages } : {}),
            score: hit.score,
            text: hit.text,
            link: passageLink(hit.documentId, hit.chunkId),
          })),
          belowThreshold: result.belowThreshold,
          warnings: result.warnings,
        };
      }, searchText),
  );

  server.registerTool(
    'ask',
    {
      title: 'Ask the documents',
      description:
        "Ask a question and get Lumina's answer, written only from the passages it retrieves, with " +
        'numbered citations [n] listed by title › heading path with a link each. When the documents do ' +
        `not answer it, the answer is exactly "${NOT_FOUND_SENTENCE}" (notFound: true). Returns the ` +
        'conversationId (pass it back to ask a follow-up) and the messageId, whose retrieval trace is at ' +
        'the `trace` link.',
      inputSchema: askToolInputSchema,
      outputSchema: askToolOutputSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    ({ question, settings, collectionIds, conversationId }, extra) =>
      respond(async (): Promise<AskToolOutput> => {
        const answer = await api.ask({ question, settings, collectionIds, conversationId }, extra.signal);
        return {
          answer: answer.text,
          notFound: answer.notFound,
          generator: answer.generator,
          citations: answer.citations.map((citation) => ({
            marker: citation.marker,
            chunkId: citation.chunkId,
            documentId: citation.documentId,
            title: citation.title,
            headingPath: citation.headingPath,
            ...(citation.pages ? { pages: citation.pages } : {}),
            link: passageLink(citation.documentId, citation.chunkId),
          })),
          conversationId: answer.conversationId,
          messageId: answer.messageId,
          trace: `${base}/messages/${answer.messageId}/trace`,
        };
      }, askText),
  );

  server.registerTool(
    'get_passage',
    {
      title: 'Read a passage',
      description:
        'Read one passage in full by its chunkId (from search or a citation of ask): its text, document ' +
        'title and heading path, and the passages just before and after it in the document (`neighbours` ' +
        'on each side, default 1, at most 5).',
      inputSchema: getPassageToolInputSchema,
      outputSchema: getPassageToolOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ chunkId, neighbours }, extra) =>
      respond(async (): Promise<GetPassageToolOutput> => {
        const passage = await api.getPassage(chunkId, neighbours, extra.signal);
        return { ...passage, link: passageLink(passage.document.id, passage.chunk.id) };
      }, passageText),
  );

  server.registerTool(
    'list_documents',
    {
      title: 'List the documents',
      description:
        'List the documents this API key may read, newest first, a page at a time: id, title, ingestion ' +
        `status, collection and passage count. \`search\` matches words of the title; \`limit\` is at most ${MAX_TOOL_PAGE_LIMIT}. ` +
        'A document reads in full as the resource lumina://documents/{id}.',
      inputSchema: listDocumentsToolInputSchema,
      outputSchema: listDocumentsToolOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (query, extra) =>
      respond(async (): Promise<ListDocumentsToolOutput> => {
        const page = await api.listDocuments(query, extra.signal);
        return {
          ...page,
          items: page.items.map(({ id, title, status, collectionId, chunkCount }) => ({
            id,
            title,
            status,
            collectionId,
            chunkCount,
          })),
        };
      }, documentsText),
  );

  server.registerResource(
    'document',
    new ResourceTemplate(DOCUMENT_URI_TEMPLATE, {
      list: async (extra) => {
        try {
          const page = await api.listDocuments({ limit: MAX_TOOL_PAGE_LIMIT }, extra.signal);
          return {
            resources: page.items.map((document) => ({
              uri: documentUri(document.id),
              name: document.title,
              description: `${document.chunkCount} passages, ${document.status}`,
              mimeType: 'text/plain',
            })),
          };
        } catch (error) {
          throw resourceFailure(error, options.onUnexpected);
        }
      },
    }),
    {
      title: "A document's passages",
      description: `The document's passages in reading order, each under its heading path (the first ${MAX_RESOURCE_PASSAGES.toLocaleString('en-US')}).`,
      mimeType: 'text/plain',
    },
    async (uri, variables, extra): Promise<ReadResourceResult> => {
      try {
        const id = documentResourceIdSchema.safeParse(variables.id);
        if (!id.success) throw new LuminaApiError(id.error.issues[0].message, 400, 'invalid_request');
        const document = await api.readDocument(id.data, MAX_RESOURCE_PASSAGES, extra.signal);
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: documentText(document) }] };
      } catch (error) {
        throw resourceFailure(error, options.onUnexpected);
      }
    },
  );
}

export const DOCUMENT_URI_TEMPLATE = 'lumina://documents/{id}';

export function documentUri(documentId: string): string {
  return `lumina://documents/${documentId}`;
}

async function toolResult<T extends Record<string, unknown>>(
  work: () => Promise<T>,
  render: (value: T) => string,
  onUnexpected: ((error: unknown) => void) | undefined,
): Promise<CallToolResult> {
  try {
    const structured = await work();
    return { content: [{ type: 'text', text: render(structured) }], structuredContent: structured };
  } catch (error) {
    return { isError: true, content: [{ type: 'text', text: failureText(error, onUnexpected) }] };
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Too large',
  422: 'Unprocessable',
  429: 'Too many requests',
  503: 'Unavailable',
};

/** The sentence a failed tool answers: the API's, with its status; never an unexpected error's detail. */
function failureText(error: unknown, onUnexpected: ((error: unknown) => void) | undefined): string {
  if (error instanceof LuminaApiError) {
    if (error.status === null) return error.message;
    return `${STATUS_TEXT[error.status] ?? 'Error'} (${error.status}): ${error.message}`;
  }
  onUnexpected?.(error);
  return 'Lumina could not do this: an unexpected error (the server log has the detail).';
}

function resourceFailure(error: unknown, onUnexpected: ((error: unknown) => void) | undefined): McpError {
  const text = failureText(error, onUnexpected);
  const invalid = error instanceof LuminaApiError && error.status !== null && error.status < 500;
  return new McpError(invalid ? ErrorCode.InvalidParams : ErrorCode.InternalError, text);
}

function searchText(result: SearchToolOutput): string {
  const lines: string[] = [];
  if (result.passages.length === 0) {
    lines.push(
      result.belowThreshold
        ? `Passages were found for "${result.query}", but none reached the similarity threshold (minScore).`
        : `No passage matched "${result.query}".`,
    );
  } else {
    lines.push(`${count(result.passages.length, 'passage')} for "${result.query}", best first:`);
    for (const passage of result.passages) {
      lines.push(
        '',
        `[${passage.rank}] ${sourceLabel(passage)} (score ${round(passage.score)})`,
        passage.text,
        `chunkId: ${passage.chunkId}`,
        `link: ${passage.link}`,
      );
    }
  }
  if (result.warnings.length) lines.push('', 'Warnings:', ...result.warnings.map((w) => `- ${w}`));
  return lines.join('\n');
}

function askText(answer: AskToolOutput): string {
  const lines = [answer.answer];
  if (answer.citations.length) {
    lines.push('', 'Sources:');
    for (const citation of answer.citations) {
      lines.push(`[${citation.marker}] ${sourceLabel(citation)}: ${citation.link}`);
    }
  }
  lines.push(
    '',
    `conversationId: ${answer.conversationId} (to ask a follow-up)`,
    `messageId: ${answer.messageId}; retrieval trace: ${answer.trace}`,
  );
  return lines.join('\n');
}

function passageText(passage: GetPassageToolOutput): string {
  const title = passage.document.title;
  const lines = [
    `${sourceLabel({ title, headingPath: passage.chunk.headingPath })} (passage ${passage.chunk.ordinal + 1}, document ${passage.document.id})`,
    `link: ${passage.link}`,
    '',
    passage.chunk.text,
  ];
  const around = (label: string, chunks: ChunkView[]) => {
    if (!chunks.length) return;
    lines.push('', `${label}:`);
    for (const chunk of chunks) lines.push('', `--- ${neighbourLabel(title, chunk)}`, chunk.text);
  };
  around('Before', passage.before);
  around('After', passage.after);
  return lines.join('\n');
}

function neighbourLabel(title: string, chunk: ChunkView): string {
  return `passage ${chunk.ordinal + 1}: ${sourceLabel({ title, headingPath: chunk.headingPath })} (chunkId ${chunk.id})`;
}

function documentsText(page: ListDocumentsToolOutput): string {
  if (page.items.length === 0) {
    return page.total === 0
      ? 'No document matches.'
      : `Page ${page.page} is past the last page (${page.totalPages}) of ${count(page.total, 'document')}.`;
  }
  const first = (page.page - 1) * page.limit + 1;
  const lines = [
    `Documents ${first}–${first + page.items.length - 1} of ${page.total} (page ${page.page} of ${page.totalPages}):`,
  ];
  for (const document of page.items) {
    lines.push(
      `- ${document.title} (id ${document.id}; ${document.status}; ${count(document.chunkCount, 'passage')}; collection ${document.collectionId})`,
    );
  }
  return lines.join('\n');
}

function documentText({ document, passages, total }: DocumentText): string {
  const lines = [`${document.title}`, `(${count(total, 'passage')}, document ${document.id})`];
  let heading = '';
  for (const passage of passages) {
    const path = passage.headingPath.join(' › ');
    if (path && path !== heading) lines.push('', `## ${path}`);
    heading = path;
    lines.push('', passage.text);
  }
  if (passages.length < total) {
    lines.push(
      '',
      `[Cut: the first ${passages.length.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} passages. ` +
        'Search the document (search with documentIds) for the rest.]',
    );
  }
  return lines.join('\n');
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}

function round(score: number): string {
  return Number(score.toPrecision(4)).toString();
}

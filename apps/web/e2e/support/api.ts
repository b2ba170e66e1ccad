/** Direct calls to the API for test setup (seeding), not for what the tests check. */
import { readFileSync } from 'node:fs';
import type {
  AcceptedDocument,
  AcceptedDocuments,
  CreateTextDocumentRequest,
  DocumentDetail,
  DocumentView,
  Page,
} from '@lumina/shared';
import { API_URL, eventually, stack } from './browser';
import type { RecordedRequest } from './testing-llm';
import { loggedRequests } from './scripted-llm';
import type { LoggedRequest } from './scripted-llm';

export async function apiJson<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${API_URL}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * fetch for an idempotent request, tried a second time when a reused keep-alive connection turns out
 * closed: the server drops idle connections after 5 s, and on a loaded machine the client's own idle
 * timer can fire after that ("SocketError: other side closed" on a suite's first request).
 */
async function fetchIdempotent(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; name?: string } }).cause;
    const stale =
      cause?.name === 'SocketError' || cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'ECONNRESET';
    if (!stale) throw error;
    return fetch(url, init);
  }
}

/**
 * Deletes every document, so that a suite's corpus is exactly what it seeds itself, whichever suites ran
 * before it on the shared server. Every suite that reads search results or the library calls it first.
 */
export async function emptyLibrary(apiUrl = API_URL): Promise<void> {
  const listed = async () => {
    const response = await fetchIdempotent(`${apiUrl}/documents?limit=100`);
    if (!response.ok) throw new Error(`GET /documents → ${response.status}: ${await response.text()}`);
    return ((await response.json()) as Page<DocumentView>).items;
  };
  for (let round = 0; ; round++) {
    const documents = await listed();
    if (!documents.length) return;
    if (round === 20) throw new Error(`the library is still not empty: ${documents.length} left`);
    for (const { id } of documents) {
      const response = await fetchIdempotent(`${apiUrl}/documents/${id}`, {
        method: 'DELETE',
        headers: { 'x-lumina-client': 'e2e' },
      });
      // 404: deleted meanwhile (an ingestion that ended in a cancel).
      if (!response.ok && response.status !== 404) {
        throw new Error(`DELETE /documents/${id} → ${response.status}: ${await response.text()}`);
      }
    }
  }
}

/** Uploads a file through the API (multipart) and waits until it is indexed; returns its id. */
export async function seedDocument(file: string, name: string, apiUrl = API_URL): Promise<string> {
  const form = new FormData();
  form.append('files', new Blob([readFileSync(file)], { type: 'text/markdown' }), name);
  // Local mode: a keyless multipart upload needs the client header (the web app sends it too).
  const response = await fetch(`${apiUrl}/documents`, {
    method: 'POST',
    headers: { 'x-lumina-client': 'e2e' },
    body: form,
  });
  if (!response.ok) throw new Error(`upload of ${name} → ${response.status}: ${await response.text()}`);
  const { documents } = (await response.json()) as AcceptedDocuments;
  const id = documents[0].id;
  await waitUntilIndexed(id, name, apiUrl);
  return id;
}

/** Creates a document from text through the API and waits until it is indexed; returns its id. */
export async function seedTextDocument(title: string, text: string): Promise<string> {
  const body: CreateTextDocumentRequest = { title, text };
  const { id } = await apiJson<AcceptedDocument>('POST', '/documents/text', body);
  await waitUntilIndexed(id, title);
  return id;
}

async function waitUntilIndexed(id: string, name: string, apiUrl = API_URL): Promise<void> {
  let last = 'unknown';
  await eventually(
    () => `${name} to be indexed (last seen: ${last})`,
    async () => {
      const answer = await fetchIdempotent(`${apiUrl}/documents/${id}`);
      if (!answer.ok) throw new Error(`GET /documents/${id} → ${answer.status}: ${await answer.text()}`);
      const document = (await answer.json()) as DocumentDetail;
      last = `${document.status}${document.error ? `, ${document.error}` : ''}`;
      if (document.status === 'failed' || document.status === 'cancelled') {
        throw new Error(`${name} ended ${document.status}: ${document.error ?? 'no reason given'}`);
      }
      return document.status === 'indexed';
    },
    60_000,
  );
}

export async function llmRequests(): Promise<LoggedRequest[]> {
  return loggedRequests((await (await fetch(`${stack.llmUrl}/__requests`)).json()) as RecordedRequest[]);
}

export async function resetLlm(): Promise<void> {
  await fetch(`${stack.llmUrl}/__reset`, { method: 'POST' });
}

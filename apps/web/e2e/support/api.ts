/** Direct calls to the API for test setup (seeding), not for what the tests check. */
import { readFileSync } from 'node:fs';
import type {
  AcceptedDocument,
  AcceptedDocuments,
  CreateTextDocumentRequest,
  DocumentDetail,
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
      const answer = await fetch(`${apiUrl}/documents/${id}`);
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

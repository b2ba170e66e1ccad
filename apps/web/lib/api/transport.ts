/**
 * The web app's HTTP transport: the base URL, the API key header, fetch with each operation's timeout
 * and the caller's abort signal, error answers turned into ApiErrors, and Server-Sent Events. It knows
 * no resource: the files beside it (documents.ts, chat.ts, …) describe what each endpoint sends and
 * answers, typed from libs/shared.
 */
import {
  abortedError,
  ApiError,
  httpError,
  invalidResponseError,
  timeoutError,
  unreachableError,
} from '../api-errors';
import { buildPath, buildQuery, type ApiOperation } from '../api-operations';
import { readSse } from '../sse';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportOptions {
  /** e.g. http://127.0.0.1:3000 (a trailing slash is ignored). */
  baseUrl: string;
  /** Injected in tests; defaults to the global fetch. */
  fetch?: FetchLike;
  /** The API key signed in with, sent as the `x-api-key` header when set. */
  apiKey?: () => string | null;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export type QueryValues = Record<string, string | number | boolean | undefined | null>;

export interface CallSpec {
  params?: Record<string, string>;
  query?: QueryValues;
  /** JSON-encoded unless it is FormData. */
  body?: unknown;
  signal?: AbortSignal;
}

/** An answer as it came: status, the body as text and (when it parses) as JSON, and the headers. */
export interface RawAnswer {
  status: number;
  ok: boolean;
  json: unknown;
  text: string;
  headers: Headers;
}

export interface Transport {
  /** The API's address, without a trailing slash. */
  baseUrl: string;
  /** Sends one request and reads its answer whatever the status (only failures to talk throw). */
  call(operation: ApiOperation, spec?: CallSpec): Promise<RawAnswer>;
  /** A JSON call whose answer is read by `parse`; errors and unreadable answers become ApiErrors. */
  json<T>(
    operation: ApiOperation,
    spec: CallSpec,
    parse: (json: unknown) => T | null,
    expected: string,
  ): Promise<T>;
  /** A call whose answer has no body worth reading (DELETE). */
  noContent(operation: ApiOperation, spec: CallSpec): Promise<void>;
  /** Opens an SSE response; a non-2xx answer is thrown as an ApiError before any event. */
  stream(operation: ApiOperation, spec: CallSpec): AsyncGenerator<{ event: string; data: string }>;
}

/** A list query (`{ page, limit, search, … }`) as URL query values. */
export function queryOf(query: object = {}): QueryValues {
  return { ...query } as QueryValues;
}

/** Every failure is thrown as an ApiError whose message is a sentence for a person. */
export function createTransport(options: TransportOptions): Transport {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  function urlOf(operation: ApiOperation, spec: CallSpec): string {
    return `${baseUrl}${buildPath(operation.path, spec.params)}${buildQuery(spec.query)}`;
  }

  function headersFor(body: unknown, accept: string): Record<string, string> {
    // Tells the API a keyless form upload (local mode) comes from this app, not a form on another site.
    const headers: Record<string, string> = { Accept: accept, 'x-lumina-client': 'web' };
    if (body !== undefined && !(body instanceof FormData)) headers['Content-Type'] = 'application/json';
    const key = options.apiKey?.();
    if (key) headers['x-api-key'] = key;
    return headers;
  }

  /**
   * Sends one request. The operation's timeout covers the whole call, or only the wait for the
   * response headers when `untilHeaders` (streams): the returned `release` ends the timer and the
   * link to the caller's signal.
   */
  async function send(
    operation: ApiOperation,
    spec: CallSpec,
    accept: string,
    untilHeaders: boolean,
  ): Promise<{ response: Response; release: () => void; timedOut: () => boolean }> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, operation.timeoutMs);
    const { signal } = spec;
    const forwardAbort = () => controller.abort();
    if (signal?.aborted) controller.abort();
    signal?.addEventListener('abort', forwardAbort, { once: true });
    const release = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forwardAbort);
    };
    try {
      const body = spec.body;
      const response = await doFetch(urlOf(operation, spec), {
        method: operation.method,
        headers: headersFor(body, accept),
        body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
        cache: 'no-store',
        credentials: 'omit',
        signal: controller.signal,
      });
      if (untilHeaders) clearTimeout(timer);
      return { response, release, timedOut: () => timedOut };
    } catch (error) {
      release();
      if (error instanceof ApiError) throw error;
      if (timedOut) throw timeoutError(operation);
      if (signal?.aborted) throw abortedError(operation);
      throw unreachableError(operation, baseUrl, error);
    }
  }

  async function call(operation: ApiOperation, spec: CallSpec = {}): Promise<RawAnswer> {
    const { response, release, timedOut } = await send(operation, spec, 'application/json', false);
    try {
      const text = await response.text();
      return {
        status: response.status,
        ok: response.ok,
        json: parseJson(text),
        text,
        headers: response.headers,
      };
    } catch (error) {
      if (timedOut()) throw timeoutError(operation);
      if (spec.signal?.aborted) throw abortedError(operation);
      throw unreachableError(operation, baseUrl, error);
    } finally {
      release();
    }
  }

  async function json<T>(
    operation: ApiOperation,
    spec: CallSpec,
    parse: (json: unknown) => T | null,
    expected: string,
  ): Promise<T> {
    const { status, ok, json: body } = await call(operation, spec);
    if (!ok) throw httpError({ status, body, operation });
    const parsed = parse(body);
    if (parsed === null) throw invalidResponseError(operation, status, expected);
    return parsed;
  }

  async function noContent(operation: ApiOperation, spec: CallSpec): Promise<void> {
    const { status, ok, json: body } = await call(operation, spec);
    if (!ok) throw httpError({ status, body, operation });
  }

  async function* stream(
    operation: ApiOperation,
    spec: CallSpec,
  ): AsyncGenerator<{ event: string; data: string }> {
    const { response, release } = await send(operation, spec, 'text/event-stream', true);
    try {
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        throw httpError({ status: response.status, body: parseJson(text), operation });
      }
      if (!response.body) throw invalidResponseError(operation, response.status, 'expected an event stream');
      const type = response.headers.get('content-type') ?? '';
      if (!type.includes('text/event-stream')) {
        throw invalidResponseError(
          operation,
          response.status,
          `expected an event stream, got ${type || 'no type'}`,
        );
      }
      try {
        for await (const message of readSse(response.body, spec.signal)) yield message;
      } catch (error) {
        if (spec.signal?.aborted) return;
        throw unreachableError(operation, baseUrl, error);
      }
    } finally {
      release();
    }
  }

  return { baseUrl, call, json, noContent, stream };
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

import { NOT_FOUND_SENTENCE } from '@lumina/shared';
import { HttpLumina } from './http-lumina';
import { LuminaApiError } from './lumina-api.port';

const DONE = {
  conversationId: 'c1',
  messageId: 'm1',
  notFound: false,
  generator: 'extractive',
  source: 'documents',
  model: 'use-lite-512',
  usage: null,
  timings: { rewrite: 0, search: 1, generation: 1, firstToken: 1, total: 2 },
  generalKnowledgeAvailable: false,
};
const CITATION = {
  marker: 1,
  chunkId: 'k1',
  documentId: 'd1',
  title: 'Database runbook',
  headingPath: ['Failover'],
  anchor: 'failover',
  span: { start: 0, end: 10 },
};

/** A response whose body arrives in these pieces, or (`bytesPerRead`) cut every so many bytes. */
function streamed(pieces: string[], bytesPerRead?: number): Response {
  const encoder = new TextEncoder();
  const bytes = encoder.encode(pieces.join(''));
  const reads: Uint8Array[] = bytesPerRead
    ? Array.from({ length: Math.ceil(bytes.length / bytesPerRead) }, (_, i) =>
        bytes.slice(i * bytesPerRead, (i + 1) * bytesPerRead),
      )
    : pieces.map((piece) => encoder.encode(piece));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const read of reads) controller.enqueue(read);
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

function event(name: string, data: unknown, newline = '\n'): string {
  return `event: ${name}${newline}data: ${JSON.stringify(data)}${newline}${newline}`;
}

function lumina(answer: Response | Error, seen: { url?: string; init?: RequestInit } = {}): HttpLumina {
  const fakeFetch = (async (url: string, init: RequestInit) => {
    seen.url = url;
    seen.init = init;
    if (answer instanceof Error) throw answer;
    return answer;
  }) as unknown as typeof fetch;
  return new HttpLumina('http://127.0.0.1:3000/', 'lum_key', fakeFetch);
}

const signal = new AbortController().signal;

describe('HttpLumina', () => {
  it("reads POST /chat's events to the end, whatever pieces they arrive in, skipping comments", async () => {
    const events = [
      ': keep-alive\n\n',
      event('retrieval', { passages: 'not read' }),
      event('token', { text: 'Promote the standby — pg_ctl › promote [1].' }, '\r\n'),
      event('token', { text: ' Then repoint.' }),
      event('citations', { citations: [CITATION], droppedMarkers: [], uncited: false }),
      event('done', DONE),
    ];
    // Cut every 7 bytes: events, lines and multi-byte characters split across reads.
    const seen: { url?: string; init?: RequestInit } = {};
    const answer = await lumina(streamed(events, 7), seen).ask(
      { question: 'How do I promote the standby?', collectionIds: ['a'] },
      signal,
    );
    expect(answer).toEqual({
      text: 'Promote the standby — pg_ctl › promote [1]. Then repoint.',
      notFound: false,
      generator: 'extractive',
      citations: [CITATION],
      conversationId: 'c1',
      messageId: 'm1',
    });
    expect(seen.url).toBe('http://127.0.0.1:3000/chat');
    expect(seen.init?.headers).toMatchObject({ accept: 'text/event-stream', 'x-api-key': 'lum_key' });
    expect(JSON.parse(String(seen.init?.body))).toEqual({
      message: 'How do I promote the standby?',
      collectionIds: ['a'],
    });
  });

  it('answers the not-found sentence as the stream gives it', async () => {
    const answer = await lumina(
      streamed([
        event('token', { text: NOT_FOUND_SENTENCE }),
        event('citations', { citations: [], droppedMarkers: [], uncited: false }),
        event('done', { ...DONE, notFound: true, generator: 'none' }),
      ]),
    ).ask({ question: 'Colours?' }, signal);
    expect(answer).toMatchObject({ text: NOT_FOUND_SENTENCE, notFound: true, citations: [] });
  });

  it("turns the stream's error event, or a stream that ends early, into the chat's sentence", async () => {
    const failed = lumina(
      streamed([
        event('token', { text: 'Partial' }),
        event('error', { code: 'llm_failed', message: 'The model stopped answering.', messageId: 'm9' }),
      ]),
    ).ask({ question: 'Q?' }, signal);
    await expect(failed).rejects.toThrow(
      'The answer failed (llm_failed): The model stopped answering. (the partial answer is message m9)',
    );
    const cut = lumina(streamed([event('token', { text: 'Partial' })])).ask({ question: 'Q?' }, signal);
    await expect(cut).rejects.toThrow('The answer ended before it was complete.');
    const malformed = lumina(streamed(['event: done\ndata: {"conversationId":\n\n'])).ask(
      { question: 'Q?' },
      signal,
    );
    await expect(malformed).rejects.toThrow('The chat stream sent a malformed done event.');
  });

  it("keeps the API's status and sentence of a refusal; a page that is not the API's says its status", async () => {
    const refusal = (body: unknown, status: number) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const notFound = lumina(
      refusal({ statusCode: 404, code: 'not_found', message: 'No chunk has the id x.' }, 404),
    ).getPassage('x', 1, signal);
    await expect(notFound).rejects.toEqual(new LuminaApiError('No chunk has the id x.', 404, 'not_found'));
    await expect(notFound).rejects.toMatchObject({ status: 404, code: 'not_found' });
    const invalid = lumina(
      refusal(
        { statusCode: 400, code: 'invalid_request', message: ['topK must be at most 50', 'ranker …'] },
        400,
      ),
    ).search({ query: 'q' }, signal);
    await expect(invalid).rejects.toMatchObject({
      message: 'topK must be at most 50; ranker …',
      status: 400,
    });
    const proxy = lumina(
      new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    ).listDocuments({}, signal);
    await expect(proxy).rejects.toMatchObject({ message: 'The API answered 502 Bad Gateway', status: 502 });
  });

  it('says the API could not be reached, with the cause', async () => {
    const error = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:3000') });
    await expect(lumina(error).listDocuments({}, signal)).rejects.toMatchObject({
      message:
        "Lumina's API at http://127.0.0.1:3000 could not be reached: connect ECONNREFUSED 127.0.0.1:3000",
      status: null,
      code: 'unreachable',
    });
  });

  it('builds the query string of a document list from the given fields only', async () => {
    const seen: { url?: string } = {};
    const page = { items: [], page: 2, limit: 5, total: 0, totalPages: 0 };
    await lumina(new Response(JSON.stringify(page)), seen).listDocuments(
      { page: 2, limit: 5, search: 'run book', collectionId: undefined },
      signal,
    );
    expect(seen.url).toBe('http://127.0.0.1:3000/documents?page=2&limit=5&search=run+book');
  });
});

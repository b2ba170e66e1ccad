import type { Json } from './http';

export interface SseEvent {
  event: string;
  data: Json;
}

export interface SseResponse {
  status: number;
  contentType: string | null;
  /** The parsed events (for a non-stream answer: none, and `body` holds the JSON). */
  events: SseEvent[];
  body: Json;
}

/** Parse `event:`/`data:` blocks out of an SSE text buffer; returns the events and the unparsed rest. */
export function parseSse(buffer: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  const blocks = buffer.split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length) events.push({ event, data: JSON.parse(data.join('\n')) as Json });
  }
  return { events, rest };
}

/**
 * POST a JSON body and read the Server-Sent Events answer as it arrives. `onEvent` sees each event
 * when it is parsed (e.g. to abort the request after the first token).
 */
export async function postSse(
  url: string,
  body: unknown,
  options: {
    signal?: AbortSignal;
    onEvent?: (event: SseEvent) => void;
    headers?: Record<string, string>;
  } = {},
): Promise<SseResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...options.headers },
    body: JSON.stringify(body),
    signal: options.signal,
  });
  const contentType = response.headers.get('content-type');
  if (!contentType?.startsWith('text/event-stream')) {
    return { status: response.status, contentType, events: [], body: (await response.json()) as Json };
  }
  const events: SseEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      const parsed = parseSse(buffer);
      buffer = parsed.rest;
      for (const event of parsed.events) {
        events.push(event);
        options.onEvent?.(event);
      }
    }
  } catch (error) {
    if (!options.signal?.aborted) throw error;
  }
  return { status: response.status, contentType, events, body: null };
}

/** The events' names in order, with consecutive tokens collapsed into one. */
export function eventOrder(events: SseEvent[]): string[] {
  return events.map((e) => e.event).filter((name, i, all) => name !== 'token' || all[i - 1] !== 'token');
}

export function tokensOf(events: SseEvent[]): string {
  return events
    .filter((e) => e.event === 'token')
    .map((e) => e.data.text as string)
    .join('');
}

export function eventOf(events: SseEvent[], name: string): Json {
  return events.find((e) => e.event === name)?.data;
}

/** Wait until `check` holds (the other side of a socket notices a close on a later turn). */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (!(await check()) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  return check();
}

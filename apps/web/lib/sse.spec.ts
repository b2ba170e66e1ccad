import { readSse, SseParser } from './sse';

function streamOf(...pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

describe('SseParser', () => {
  it('reads named events with JSON data, whatever the network splits', () => {
    const parser = new SseParser();
    const text = 'event: token\ndata: {"text":"Hel"}\n\nevent: token\ndata: {"text":"lo"}\n\n';
    const events = [...text].flatMap((char) => parser.push(char));
    expect(events).toEqual([
      { event: 'token', data: '{"text":"Hel"}', id: null },
      { event: 'token', data: '{"text":"lo"}', id: null },
    ]);
  });

  it('joins multi-line data, skips comments (heartbeats), keeps ids and defaults the name', () => {
    const parser = new SseParser();
    expect(parser.push(': keep-alive\n\nid: 7\ndata: one\ndata: two\n\n')).toEqual([
      { event: 'message', data: 'one\ntwo', id: '7' },
    ]);
  });

  it('handles CRLF and a CR split from its LF across pieces', () => {
    const parser = new SseParser();
    expect(parser.push('event: done\r')).toEqual([]);
    expect(parser.push('\ndata: {}\r\n\r\n')).toEqual([{ event: 'done', data: '{}', id: null }]);
  });

  it('dispatches nothing for a block without data, and drops an unterminated event at the end', () => {
    const parser = new SseParser();
    expect(parser.push('event: ping\n\n')).toEqual([]);
    expect(parser.push('data: half')).toEqual([]);
    expect(parser.end()).toEqual([]);
  });
});

describe('readSse', () => {
  it('yields the events of a fetch body until it ends', async () => {
    const events = [];
    for await (const event of readSse(streamOf('data: {"a":1}\n', '\ndata: {"a":2}\n\n'))) events.push(event);
    expect(events.map((event) => event.data)).toEqual(['{"a":1}', '{"a":2}']);
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        stream.enqueue(new TextEncoder().encode('data: first\n\n'));
      },
    });
    const seen: string[] = [];
    for await (const event of readSse(body, controller.signal)) {
      seen.push(event.data);
      controller.abort();
    }
    expect(seen).toEqual(['first']);
  });
});

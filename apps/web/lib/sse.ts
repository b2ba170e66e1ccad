/** One Server-Sent Event as the wire format defines it (https://html.spec.whatwg.org/#server-sent-events). */
export interface SseMessage {
  /** 'message' when the server named none. */
  event: string;
  data: string;
  id: string | null;
}

/**
 * Incremental SSE parser: feed it decoded text in whatever pieces the network delivers, get complete
 * events back. Handles CRLF/CR/LF line ends, multi-line data, comments and a trailing partial line.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private id: string | null = null;
  private sawData = false;

  push(text: string): SseMessage[] {
    this.buffer += text;
    const out: SseMessage[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A lone CR at the very end may be the first half of CRLF: wait for more.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const message = this.line(line);
      if (message) out.push(message);
    }
    return out;
  }

  /** The stream ended: an event without its closing blank line is dropped, as the spec says. */
  end(): SseMessage[] {
    this.buffer = '';
    this.reset();
    return [];
  }

  private line(line: string): SseMessage | null {
    if (line === '') {
      const message = this.sawData
        ? { event: this.event || 'message', data: this.data.join('\n'), id: this.id }
        : null;
      this.reset();
      return message;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.event = value;
        break;
      case 'data':
        this.data.push(value);
        this.sawData = true;
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      default:
        break;
    }
    return null;
  }

  private reset(): void {
    this.event = '';
    this.data = [];
    this.sawData = false;
  }
}

/** Reads a fetch body as Server-Sent Events until it ends or the signal aborts. */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<SseMessage, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) return;
      const { value, done } = await reader.read();
      if (done) {
        yield* parser.push(decoder.decode() + '\n');
        parser.end();
        return;
      }
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    reader.releaseLock();
  }
}

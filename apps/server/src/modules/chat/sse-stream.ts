import type { ChatStreamEventMap, ChatStreamEventName } from '@lumina/shared';
import type { Request, Response } from 'express';

/** How often a comment line keeps an idle stream (and the proxies on the way) open. */
export const SSE_HEARTBEAT_MS = 15_000;

/**
 * A Server-Sent Events response over Express: headers flushed at once, one `event:`/`data:` block per
 * event, a heartbeat comment while nothing else is sent. `signal` aborts when the client goes away
 * before the stream ended, so the work behind it (the LLM request) can stop.
 */
export class SseStream {
  private readonly controller = new AbortController();
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(
    req: Request,
    private readonly res: Response,
  ) {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    // nginx and similar proxies would otherwise buffer the stream.
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    const onGone = () => {
      if (!res.writableFinished) this.controller.abort(new Error('the client closed the connection'));
    };
    res.on('close', onGone);
    req.on('aborted', onGone);
    this.heartbeat = setInterval(() => this.write(': keep-alive\n\n'), SSE_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Aborts when the client disconnects. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** End the work behind the stream from the server's side (e.g. a shutdown), with `reason`. */
  abort(reason: Error): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  get open(): boolean {
    return !this.res.writableEnded && !this.res.destroyed;
  }

  send<K extends ChatStreamEventName>(event: K, data: ChatStreamEventMap[K]): void {
    this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    clearInterval(this.heartbeat);
    if (this.open) this.res.end();
  }

  protected write(chunk: string): void {
    if (this.open) this.res.write(chunk);
  }
}

import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { SseStream } from './sse-stream';

/** Why a stream was ended by the server: it is shutting down (SIGTERM), not the client leaving. */
export class ServerRestartingError extends Error {
  constructor() {
    super('the server is restarting');
    this.name = 'ServerRestartingError';
  }
}

/** What a shutdown ends: a stream (or a held response) whose work stops when it is aborted. */
export interface ServerStream {
  readonly signal: AbortSignal;
  abort(reason: Error): void;
  end(): void;
}

/**
 * The chat streams that are open, so a shutdown can end each one cleanly: its work is aborted with
 * ServerRestartingError, the answer so far is stored (status cancelled), the client gets an `error`
 * event, and the shutdown waits until all of that is done.
 */
@Injectable()
export class ChatStreams {
  private readonly running = new Map<ServerStream, Promise<void>>();
  private closing = false;

  /** Open an SSE stream and run `work` on it; the stream ends when `work` settles. */
  async run(request: Request, response: Response, work: (stream: SseStream) => Promise<void>): Promise<void> {
    return this.runOn(new SseStream(request, response), work);
  }

  /** Run `work` on a stream opened elsewhere (another wire format); it ends when `work` settles. */
  async runOn<S extends ServerStream>(stream: S, work: (stream: S) => Promise<void>): Promise<void> {
    if (this.closing) stream.abort(new ServerRestartingError());
    const done = work(stream).finally(() => {
      stream.end();
      this.running.delete(stream);
    });
    this.running.set(stream, done);
    return done;
  }

  get size(): number {
    return this.running.size;
  }

  /** Abort every open stream (and any opened from now on) and wait until each has stored and ended. */
  async endAll(): Promise<void> {
    this.closing = true;
    for (const stream of this.running.keys()) stream.abort(new ServerRestartingError());
    await Promise.allSettled([...this.running.values()]);
  }
}

import type { Response } from 'express';
import type { ServerStream } from './chat-streams';

/**
 * An answer written without a stream of its own (a JSON response, an MCP tool call): its work stops when
 * its caller goes away (`parent` aborts) or the server shuts down (ChatStreams aborts it), as a stream's.
 */
export class HeldWork implements ServerStream {
  private readonly controller = new AbortController();

  constructor(parent?: AbortSignal) {
    if (parent?.aborted) this.abort(reasonOf(parent));
    else parent?.addEventListener('abort', () => this.abort(reasonOf(parent)), { once: true });
  }

  /** Work for a response: it stops when the client closes the connection before the answer. */
  static forResponse(response: Response): HeldWork {
    const work = new HeldWork();
    response.on('close', () => {
      if (!response.writableFinished) work.abort(new Error('the client closed the connection'));
    });
    return work;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(reason: Error): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  end(): void {}
}

function reasonOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the request was cancelled');
}

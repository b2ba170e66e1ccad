import type { Response } from 'express';
import type { ServerStream } from '../chat/chat-streams';

/**
 * A JSON answer being written: its work stops when the client goes away or the server shuts down,
 * like a stream's (a shutdown ends it through ChatStreams).
 */
export class HeldResponse implements ServerStream {
  private readonly controller = new AbortController();

  constructor(response: Response) {
    response.on('close', () => {
      if (!response.writableFinished) this.abort(new Error('the client closed the connection'));
    });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(reason: Error): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  end(): void {}
}

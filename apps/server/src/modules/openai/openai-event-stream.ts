import type { OpenAiChatCompletionChunk, OpenAiErrorBody } from '@lumina/shared';
import { SseStream } from '../chat/sse-stream';

/** A streamed completion in OpenAI's wire format: `data: <chunk>` events, ended by `data: [DONE]`. */
export class OpenAiEventStream extends SseStream {
  chunk(chunk: OpenAiChatCompletionChunk): void {
    this.write(`data: ${JSON.stringify(chunk)}\n\n`);
  }

  /** A failure after the stream began: OpenAI clients raise it as an API error. */
  fail(body: OpenAiErrorBody): void {
    this.write(`data: ${JSON.stringify(body)}\n\n`);
  }

  done(): void {
    this.write('data: [DONE]\n\n');
  }
}

import type { ChatDoneEvent, ChatErrorEvent, ChatStreamEvent, Citation } from '@lumina/shared';
import { LuminaApiError } from './lumina-api.port';
import type { AskAnswer } from './lumina-api.port';

/**
 * The events of one chat answer (`retrieval`, `token`…, `citations`, `done`, or `error`) gathered into
 * the whole answer: from ChatService's sink in the API's process, or from POST /chat's event stream.
 */
export class AnswerCollector {
  private text = '';
  private citations: Citation[] = [];
  private done: ChatDoneEvent | null = null;
  private error: ChatErrorEvent | null = null;

  collect(event: ChatStreamEvent): void {
    switch (event.event) {
      case 'token':
        this.text += event.data.text;
        return;
      case 'citations':
        this.citations = event.data.citations;
        return;
      case 'done':
        this.done = event.data;
        return;
      case 'error':
        this.error = event.data;
        return;
      case 'retrieval':
        return;
    }
  }

  /** The answer; the chat's own sentence when it failed, or that it ended before it was complete. */
  answer(): AskAnswer {
    if (this.error) {
      const stored = this.error.messageId ? ` (the partial answer is message ${this.error.messageId})` : '';
      throw new LuminaApiError(
        `The answer failed (${this.error.code}): ${this.error.message}${stored}`,
        null,
        this.error.code,
      );
    }
    if (!this.done) {
      throw new LuminaApiError('The answer ended before it was complete.', null, 'incomplete');
    }
    return {
      text: this.text,
      notFound: this.done.notFound,
      generator: this.done.generator,
      citations: this.citations,
      conversationId: this.done.conversationId,
      messageId: this.done.messageId,
    };
  }
}

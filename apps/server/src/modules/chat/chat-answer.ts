import type {
  AnswerGenerator,
  ChatErrorCode,
  ChatStreamEventMap,
  ChatStreamEventName,
  ChatTokenUsage,
  Citation,
} from '@lumina/shared';
import type { ChatEventSink } from './chat.service';

/** One chat answer, whole: what its events (`retrieval`, `token`…, `citations`, `done`) said. */
export interface ChatAnswer {
  conversationId: string;
  messageId: string;
  /** The answer's text (every `token` event), markers included; or the not-found sentence. */
  text: string;
  citations: Citation[];
  notFound: boolean;
  generator: AnswerGenerator;
  /** The question as it was searched (rewritten with the conversation for a follow-up); '' if unseen. */
  standaloneQuery: string;
  usage: ChatTokenUsage | null;
}

/** An answer that ended with an `error` event (the chat's code and sentence), or before `done`. */
export class ChatAnswerFailed extends Error {
  constructor(
    readonly code: ChatErrorCode | 'incomplete',
    message: string,
    /** The stored partial answer, when there is one. */
    readonly messageId: string | null = null,
  ) {
    super(message);
    this.name = 'ChatAnswerFailed';
  }
}

/**
 * Gathers a chat answer's events into the whole answer, for the callers that answer without POST /chat's
 * own stream (the MCP `ask` tool, the OpenAI-compatible endpoint): as ChatService's sink in the API's
 * process, or fed the events of POST /chat's stream by a client. Each piece of text also goes to
 * `onText` as it arrives.
 */
export class ChatAnswerCollector implements ChatEventSink {
  private standaloneQuery = '';
  private text = '';
  private citations: Citation[] = [];
  private done: ChatStreamEventMap['done'] | null = null;
  private error: ChatStreamEventMap['error'] | null = null;

  constructor(
    readonly signal: AbortSignal = new AbortController().signal,
    private readonly onText: (text: string) => void = () => undefined,
  ) {}

  send<K extends ChatStreamEventName>(event: K, data: ChatStreamEventMap[K]): void {
    const payload = data as ChatStreamEventMap[ChatStreamEventName];
    switch (event) {
      case 'retrieval': {
        this.standaloneQuery = (payload as ChatStreamEventMap['retrieval']).standaloneQuery;
        return;
      }
      case 'token': {
        const { text } = payload as ChatStreamEventMap['token'];
        this.text += text;
        this.onText(text);
        return;
      }
      case 'citations':
        this.citations = (payload as ChatStreamEventMap['citations']).citations;
        return;
      case 'done':
        this.done = payload as ChatStreamEventMap['done'];
        return;
      case 'error':
        this.error = payload as ChatStreamEventMap['error'];
        return;
    }
  }

  /** The whole answer; throws ChatAnswerFailed when it failed or ended before `done`. */
  answer(): ChatAnswer {
    if (this.error) {
      throw new ChatAnswerFailed(this.error.code, this.error.message, this.error.messageId ?? null);
    }
    if (!this.done) throw new ChatAnswerFailed('incomplete', 'The answer ended before it was complete.');
    return {
      conversationId: this.done.conversationId,
      messageId: this.done.messageId,
      text: this.text,
      citations: this.citations,
      notFound: this.done.notFound,
      generator: this.done.generator,
      standaloneQuery: this.standaloneQuery,
      usage: this.done.usage,
    };
  }
}

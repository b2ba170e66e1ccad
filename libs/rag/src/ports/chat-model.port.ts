export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What a chat model is asked: the conversation to continue and how to sample the reply. */
export interface CompletionRequest {
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  /** Ask for a JSON object answer where the endpoint supports it. */
  json?: boolean;
  /**
   * The answer is this many short lines of text (one query variant each). A local model enforces it with
   * a grammar and stops after the last line; endpoints ignore it (the prompt asks for the form anyway).
   */
  lines?: number;
  signal?: AbortSignal;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ChatCompletion {
  text: string;
  model: string;
  usage: TokenUsage | null;
}

/** One event of a streamed completion: a piece of the text, or (last, when the endpoint tells) the usage. */
export type CompletionEvent = { type: 'token'; text: string } | { type: 'usage'; usage: TokenUsage };

/**
 * A chat LLM (an OpenAI-compatible endpoint in apps/server/providers). A failed request rejects with a
 * CompletionError (its `timeout` flag set when the model ran out of time) or with the caller's abort reason.
 */
export interface ChatModel {
  readonly modelId: string;
  complete(request: CompletionRequest): Promise<ChatCompletion>;
  stream(request: CompletionRequest): AsyncIterable<CompletionEvent>;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  /** Ask for a JSON object answer where the endpoint supports it. */
  json?: boolean;
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

export type ChatStreamEvent = { type: 'token'; text: string } | { type: 'usage'; usage: TokenUsage };

/** A chat LLM (an OpenAI-compatible endpoint in apps/server/providers). */
export interface ChatModel {
  readonly modelId: string;
  complete(request: ChatRequest): Promise<ChatCompletion>;
  stream(request: ChatRequest): AsyncIterable<ChatStreamEvent>;
}

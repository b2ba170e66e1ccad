import type { ChatModel } from '../ports/chat-model.port';
import { parseVariants } from './parse-variants';
import { EXPANSION_PROMPT_VERSION, expansionMessages } from './prompts/expansion.prompt';
import type { QueryExpander } from './query-expander.port';

export interface LlmQueryExpanderOptions {
  temperature?: number;
  /** Ask the endpoint for a JSON object answer (OpenAI, vLLM, Ollama; not every server supports it). */
  json?: boolean;
}

/**
 * Multi-query expansion with a chat model: the versioned expansion prompt, and a robust parse of the
 * answer (JSON or a numbered/bulleted list). Unusable output throws, which the search reports as a
 * warning while the other branches carry on.
 */
export class LlmQueryExpander implements QueryExpander {
  readonly modelId: string;

  constructor(
    private readonly chat: ChatModel,
    private readonly options: LlmQueryExpanderOptions = {},
  ) {
    this.modelId = `${chat.modelId}/${EXPANSION_PROMPT_VERSION}`;
  }

  async expand(query: string, count: number, signal: AbortSignal): Promise<string[]> {
    const answer = await this.chat.complete({
      messages: expansionMessages(query, count),
      temperature: this.options.temperature ?? 0,
      // Room for the variants, and for a reasoning model's preamble.
      maxTokens: 512 + 64 * count,
      json: this.options.json,
      signal,
    });
    return parseVariants(answer.text, count, query);
  }
}

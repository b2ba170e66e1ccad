import type { ChatModel } from '../ports/chat-model.port';
import { parseVariants } from './parse-variants';
import {
  EXPANSION_LINES_PROMPT_VERSION,
  EXPANSION_PROMPT_VERSION,
  expansionLinesMessages,
  expansionMessages,
} from './prompts/expansion.prompt';
import type { QueryExpander } from './query-expander.port';

export interface LlmQueryExpanderOptions {
  temperature?: number;
  /** Ask the endpoint for a JSON object answer (OpenAI, vLLM, Ollama; not every server supports it). */
  json?: boolean;
  /**
   * `json` (the default): the instruction asks for a JSON object, as endpoints' models follow it.
   * `lines`: two example exchanges and one rewrite per line, for small local models that do not
   * write JSON when told to; the request says how many lines (`lines`), so a local model can hold
   * its answer to them.
   */
  format?: 'json' | 'lines';
  /** Tokens asked for per variant with the `lines` format (a variant is a short query). */
  tokensPerVariant?: number;
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
    const version = options.format === 'lines' ? EXPANSION_LINES_PROMPT_VERSION : EXPANSION_PROMPT_VERSION;
    this.modelId = `${chat.modelId}/${version}`;
  }

  async expand(query: string, count: number, signal: AbortSignal): Promise<string[]> {
    if (this.options.format === 'lines') {
      const answer = await this.chat.complete({
        messages: expansionLinesMessages(query, count),
        temperature: this.options.temperature ?? 0,
        maxTokens: (this.options.tokensPerVariant ?? 32) * count,
        lines: count,
        signal,
      });
      return parseVariants(answer.text, count, query, { bareLines: true });
    }
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

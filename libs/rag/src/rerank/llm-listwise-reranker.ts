import type { ChatModel } from '../ports/chat-model.port';
import { parseOrdering } from './parse-ordering';
import { LISTWISE_RERANK_PROMPT_VERSION, listwiseRerankMessages } from './prompts/listwise-rerank.prompt';
import type { Reranker } from './reranker.port';

export interface LlmListwiseRerankerOptions {
  /** Passages shown to the model (the first ones, best fused first); the rest keep their order below. */
  maxPassages?: number;
  /** Each passage is cut to this many characters in the prompt. */
  maxPassageChars?: number;
}

/**
 * Listwise reranking with a chat model (RankGPT-style): one prompt lists the numbered passages, the
 * model answers with an ordering, parsed robustly. Scores fall from 1 (first) in equal steps; passages
 * beyond `maxPassages` score below every ranked one, in their given order.
 */
export class LlmListwiseReranker implements Reranker {
  readonly modelId: string;
  private readonly maxPassages: number;
  private readonly maxPassageChars: number;

  constructor(
    private readonly chat: ChatModel,
    options: LlmListwiseRerankerOptions = {},
  ) {
    this.modelId = `${chat.modelId}/${LISTWISE_RERANK_PROMPT_VERSION}`;
    this.maxPassages = options.maxPassages ?? 30;
    this.maxPassageChars = options.maxPassageChars ?? 500;
  }

  async rerank(query: string, passages: string[], signal: AbortSignal): Promise<number[]> {
    if (passages.length === 0) return [];
    const shown = passages.slice(0, this.maxPassages);
    const answer = await this.chat.complete({
      messages: listwiseRerankMessages(query, shown, this.maxPassageChars),
      temperature: 0,
      maxTokens: 512 + 8 * shown.length,
      signal,
    });
    const order = parseOrdering(answer.text, shown.length);
    const scores = new Array<number>(passages.length);
    order.forEach((index, position) => {
      scores[index] = 1 - position / shown.length;
    });
    for (let i = shown.length; i < passages.length; i++)
      scores[i] = -(i - shown.length + 1) / passages.length;
    return scores;
  }
}

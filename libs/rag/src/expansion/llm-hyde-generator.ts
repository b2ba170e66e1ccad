import type { ChatModel } from '../ports/chat-model.port';
import { cleanModelOutput, excerpt } from './model-output';
import { HYDE_PROMPT_VERSION, hydeMessages } from './prompts/hyde.prompt';
import type { HydePromptOptions } from './prompts/hyde.prompt';
import type { HydeGenerator } from './query-expander.port';

export interface LlmHydeGeneratorOptions extends HydePromptOptions {
  temperature?: number;
  /** The passage is cut to this many characters (the embedder sees about this much anyway). */
  maxChars?: number;
}

/** A preamble line a model writes before the passage ("Here is a passage:", "Passage:"). */
const PREAMBLE =
  /^(?:(?:sure|certainly|okay)[,!.]?\s*)?(?:here(?:'s| is) (?:a|the) [^\n:]*:|passage:|answer:)\s*/i;

/** HyDE with a chat model: a short hypothetical passage in the corpus's style, cleaned of wrapping. */
export class LlmHydeGenerator implements HydeGenerator {
  readonly modelId: string;

  constructor(
    private readonly chat: ChatModel,
    private readonly options: LlmHydeGeneratorOptions = {},
  ) {
    this.modelId = `${chat.modelId}/${HYDE_PROMPT_VERSION}`;
  }

  async generate(query: string, signal: AbortSignal): Promise<string> {
    const answer = await this.chat.complete({
      messages: hydeMessages(query, this.options),
      temperature: this.options.temperature ?? 0,
      maxTokens: 1024,
      signal,
    });
    const passage = cleanPassage(answer.text, this.options.maxChars ?? 2000);
    if (!passage) throw new Error(`the model wrote no HyDE passage: ${excerpt(answer.text)}`);
    return passage;
  }
}

/** The passage without reasoning, fences, a preamble line or surrounding quotes; cut at a word. */
export function cleanPassage(output: string, maxChars: number): string {
  let text = cleanModelOutput(output).replace(PREAMBLE, '').trim();
  text = text.replace(/^["“]([\s\S]*)["”]$/, '$1').trim();
  if (text.length > maxChars) {
    const cut = text.slice(0, maxChars);
    const space = cut.lastIndexOf(' ');
    text = space > maxChars * 0.8 ? cut.slice(0, space) : cut;
  }
  return text;
}

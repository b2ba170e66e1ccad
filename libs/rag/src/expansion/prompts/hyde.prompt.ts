import type { ChatMessage } from '../../ports/chat-model.port';

/** Version of the HyDE prompt (part of the generator's modelId; change it with every edit). */
export const HYDE_PROMPT_VERSION = 'hyde-v1';

export interface HydePromptOptions {
  /** What the documents are, e.g. "scientific paper abstracts" or "an engineering team's runbooks". */
  corpusStyle?: string;
  /** Length of the passage asked for. */
  words?: number;
}

/**
 * Asks for a short passage that would answer the question, written the way the searched documents
 * are written (HyDE: the passage is embedded and searched, never shown as an answer).
 */
export function hydeMessages(query: string, options: HydePromptOptions = {}): ChatMessage[] {
  const words = options.words ?? 100;
  const style = options.corpusStyle
    ? `The documents are ${options.corpusStyle}; write exactly as they are written.`
    : 'Write it the way the documents themselves would be written: factual, specific, in the vocabulary of an expert author.';
  return [
    {
      role: 'system',
      content: [
        `Write one passage of about ${words} words that answers the question as a passage in the searched`,
        `documents would. ${style}`,
        'No preamble, no title, no lists, no mention of the question itself. If you are not sure of the',
        'facts, write a plausible passage anyway: it is only used to find similar real passages.',
      ].join(' '),
    },
    { role: 'user', content: `Question: ${query}` },
  ];
}

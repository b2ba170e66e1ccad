import type { ChatMessage } from '../ports/chat-model.port';

/** Version of the general-knowledge prompt (recorded with the answer; change it with every edit). */
export const GENERAL_PROMPT_VERSION = 'general-v1';

/**
 * Messages for an opt-in answer from the model's general knowledge, asked for after the documents
 * did not contain the answer. No passages, so nothing to cite; the model is told not to invent
 * sources or links.
 */
export function generalKnowledgeMessages(question: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content: [
        "The user's documents do not contain the answer to this question, and the user has asked for an",
        'answer from your general knowledge instead. Answer concisely and say plainly when you are not sure.',
        'Do not claim that the answer comes from the documents. Do not cite sources, and never write a URL',
        'or a link. Answer in the language of the question.',
      ].join(' '),
    },
    { role: 'user', content: question },
  ];
}

import type { ChatMessage } from '../../ports/chat-model.port';

/**
 * Version of the expansion prompt. Change it with every edit of the wording: it is part of the
 * expander's modelId, so evaluation reports and traces say which prompt produced their variants.
 */
export const EXPANSION_PROMPT_VERSION = 'expansion-v1';

/** Asks for exactly `count` distinct rewrites of the query, as a JSON object {"queries": [...]}. */
export function expansionMessages(query: string, count: number): ChatMessage[] {
  const plural = count === 1 ? 'query' : 'queries';
  return [
    {
      role: 'system',
      content: [
        'You help a search engine find passages in a document collection.',
        `Rewrite the user's search query into exactly ${count} different search ${plural} that passages`,
        'answering it would match: use synonyms, spell out abbreviations, name the specific technical',
        'terms, entities or mechanisms involved, and vary the phrasing. Each one must stand on its own,',
        "keep the query's meaning and language, and must not answer the query or repeat it unchanged.",
        `Reply with only a JSON object, no other text: {"queries": [${Array.from(
          { length: count },
          (_, i) => `"query ${i + 1}"`,
        ).join(', ')}]}`,
      ].join(' '),
    },
    { role: 'user', content: `Search query: ${query}` },
  ];
}

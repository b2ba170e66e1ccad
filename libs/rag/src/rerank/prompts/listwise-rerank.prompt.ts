import type { ChatMessage } from '../../ports/chat-model.port';

/** Version of the listwise rerank prompt (part of the reranker's modelId; change it with every edit). */
export const LISTWISE_RERANK_PROMPT_VERSION = 'listwise-rerank-v1';

/** Numbered passages [1]..[n] and the query; asks for every number, most relevant first, as a JSON array. */
export function listwiseRerankMessages(
  query: string,
  passages: string[],
  maxPassageChars: number,
): ChatMessage[] {
  const numbered = passages
    .map((passage, i) => `[${i + 1}] ${oneLine(passage).slice(0, maxPassageChars)}`)
    .join('\n');
  return [
    {
      role: 'system',
      content:
        'You rank passages by how relevant they are to a search query: a passage that answers the query ' +
        'directly ranks above one that only shares its words. Reply with only a JSON array of the passage ' +
        'numbers, most relevant first, every number exactly once, e.g. [3, 1, 2]. No other text.',
    },
    {
      role: 'user',
      content: `Query: ${query}\n\nPassages:\n${numbered}\n\nRank all ${passages.length} passages.`,
    },
  ];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

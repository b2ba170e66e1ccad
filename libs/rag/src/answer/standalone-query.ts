import type { ChatMessage } from '../ports/chat-model.port';
import { trimChars } from '../text/trim-chars';

/** Version of the follow-up rewriting prompt (recorded in traces; change it with every edit). */
export const STANDALONE_PROMPT_VERSION = 'standalone-v1';

/** A previous turn of the conversation. */
export interface HistoryTurn {
  role: 'user' | 'assistant';
  content: string;
  /**
   * An answer's cited passages, their text in citing order (absent or empty: none, or not known). The
   * offline follow-up rule searches a question that points back with their most telling words.
   */
  citedPassages?: readonly string[];
}

/** Turns and characters per turn the rewriting prompt shows. */
export const STANDALONE_HISTORY_TURNS = 6;
export const STANDALONE_TURN_CHARS = 1000;

/**
 * The offline standalone query: the last `turns` questions the user asked before, then the new one,
 * joined (lexical and dense search both work well on the concatenation), at most `maxChars` long.
 */
export function historyStandaloneQuery(
  history: readonly HistoryTurn[],
  question: string,
  turns = 2,
  maxChars = 2000,
): string {
  const previous = history
    .filter((turn) => turn.role === 'user')
    .slice(-turns)
    .map((turn) => turn.content.trim());
  const joined = [...previous, question.trim()].filter(Boolean).join(' ');
  // Keep the end: the new question matters most.
  return joined.length > maxChars ? joined.slice(joined.length - maxChars).trimStart() : joined;
}

/** Asks the model to rewrite a follow-up question into a standalone search query. */
export function standaloneQueryMessages(history: readonly HistoryTurn[], question: string): ChatMessage[] {
  const transcript = history
    .slice(-STANDALONE_HISTORY_TURNS)
    .map((turn) => `${turn.role === 'user' ? 'User' : 'Assistant'}: ${clip(turn.content)}`)
    .join('\n');
  return [
    {
      role: 'system',
      content: [
        'Rewrite the last question of a conversation into one standalone question that can be understood',
        'without the conversation: replace pronouns and references ("it", "that step", "the second one")',
        'with what they refer to. Keep the meaning and the language. Do not answer it. Reply with only',
        'the rewritten question.',
      ].join(' '),
    },
    {
      role: 'user',
      content: `Conversation:\n${transcript}\n\nLast question: ${clip(question)}`,
    },
  ];
}

/**
 * The rewritten question in a model's reply: the first non-empty line after any reasoning block,
 * without a label or quotes; null when nothing usable is left.
 */
export function parseStandaloneQuery(output: string): string | null {
  const text = output.replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '').trim();
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (!line) return null;
  const cleaned = line.replace(/^(?:standalone|rewritten)?\s*(?:question|query)\s*:\s*/i, '').trim();
  const unquoted = trimChars(cleaned, `"'“”\``).trim();
  return unquoted.length > 0 ? unquoted.slice(0, STANDALONE_TURN_CHARS * 2) : null;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > STANDALONE_TURN_CHARS ? `${flat.slice(0, STANDALONE_TURN_CHARS)}…` : flat;
}

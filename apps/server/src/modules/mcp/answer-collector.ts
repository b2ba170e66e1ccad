import { ChatAnswerFailed } from '../chat/chat-answer';
import type { ChatAnswerCollector } from '../chat/chat-answer';
import { LuminaApiError } from './lumina-api.port';
import type { AskAnswer } from './lumina-api.port';

/** The `ask` tool's answer from a collected chat answer; a failed one is the chat's own sentence. */
export function askAnswerOf(collector: ChatAnswerCollector): AskAnswer {
  try {
    const answer = collector.answer();
    return {
      text: answer.text,
      notFound: answer.notFound,
      generator: answer.generator,
      citations: answer.citations,
      conversationId: answer.conversationId,
      messageId: answer.messageId,
    };
  } catch (error) {
    if (!(error instanceof ChatAnswerFailed)) throw error;
    if (error.code === 'incomplete') throw new LuminaApiError(error.message, null, 'incomplete');
    const stored = error.messageId ? ` (the partial answer is message ${error.messageId})` : '';
    throw new LuminaApiError(
      `The answer failed (${error.code}): ${error.message}${stored}`,
      null,
      error.code,
    );
  }
}

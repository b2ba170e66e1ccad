import type { ChatModel } from '../../ports/chat-model.port';
import { parseStandaloneQuery, standaloneQueryMessages } from '../standalone-query';
import type { HistoryTurn } from '../standalone-query';
import { reason } from '../../pipeline/stages/plan';
import type { AnswerRun } from './answer-run';

/**
 * The rewrite stage. A follow-up (a question after earlier user turns): with a model, the model rewrites
 * it into a standalone query (`rewrite: 'llm'`); offline, or when the model fails or gives no query, the
 * search stage decides with the offline rule (true is returned, with a warning when the model failed).
 * A first question is searched as asked. Throws only when the caller aborted.
 */
export async function rewriteFollowUp(
  run: AnswerRun,
  history: readonly HistoryTurn[],
  model: ChatModel | null,
): Promise<boolean> {
  if (!history.some((turn) => turn.role === 'user')) return false;
  if (!model) return true;
  const { outcome, signal } = run;
  try {
    const reply = await model.complete({
      messages: standaloneQueryMessages(history, outcome.query),
      temperature: 0,
      maxTokens: 200,
      signal,
    });
    const rewritten = parseStandaloneQuery(reply.text);
    if (rewritten) {
      outcome.standaloneQuery = rewritten;
      outcome.rewrite = 'llm';
      return false;
    }
    outcome.warnings.push(
      'The model did not rewrite the follow-up question; it was searched as the offline rule decides.',
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    outcome.warnings.push(
      `Rewriting the follow-up question failed (${reason(error)}); it was searched as the offline rule decides.`,
    );
  }
  return true;
}

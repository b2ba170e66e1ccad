import type { ChatModel } from '@lumina/rag';
import type { QuestionTemplateKind } from '@lumina/shared';
import type { PassageForQuestion } from './template-question-generator';

export const LLM_GENERATOR_PROMPT_VERSION = 'question-gen-v1';

export interface LlmQuestion {
  question: string;
  expectedAnswer: string | null;
  model: string;
}

const SYSTEM_PROMPT =
  'You write evaluation questions for a document search system. Follow the instructions, then answer with ' +
  'ONLY a JSON object {"question": string, "answer": string}. The question must be a single question a user ' +
  'would ask; the answer is what the passage says (or "" when the question is meant to be unanswerable).';

/** Fills the template's placeholders; a template without {{passage}} gets the passage appended. */
export function renderPrompt(template: string, passage: PassageForQuestion, language: string): string {
  const values: Record<string, string> = {
    title: passage.title,
    heading: passage.headingPath.join(' › '),
    passage: passage.text,
    language,
  };
  const filled = template.replace(
    /\{\{\s*(title|heading|passage|language)\s*\}\}/g,
    (_, key: string) => values[key],
  );
  return /\{\{\s*passage\s*\}\}/.test(template)
    ? filled
    : `${filled}\n\nTitle: ${passage.title}\nSection: ${values.heading || '(none)'}\nPassage:\n${passage.text}`;
}

/** Writes one question from a passage with the chat model; throws when the reply is not usable JSON. */
export async function generateLlmQuestion(
  model: ChatModel,
  promptTemplate: string,
  kind: QuestionTemplateKind,
  passage: PassageForQuestion,
  language: string,
  signal?: AbortSignal,
): Promise<LlmQuestion> {
  const kindHint =
    kind === 'out-of-scope'
      ? 'Write a question on the same topic that this passage and similar documents do NOT answer.'
      : `Write a ${kind} question that this passage answers.`;
  const completion = await model.complete({
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: `${kindHint}\n\n${renderPrompt(promptTemplate, passage, language)}` },
    ],
    temperature: 0,
    maxTokens: 400,
    json: true,
    signal,
  });
  const parsed = parseReply(completion.text);
  return { ...parsed, model: completion.model };
}

function parseReply(text: string): { question: string; expectedAnswer: string | null } {
  // Without a fence around it (by position: `/\s*```$/` is quadratic on a long run of blanks).
  let body = text.trim();
  if (body.startsWith('```')) body = body.slice(body.startsWith('```json') ? 7 : 3).trimStart();
  if (body.endsWith('```')) body = body.slice(0, -3).trimEnd();
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new Error(`the model did not answer with JSON: ${JSON.stringify(text.slice(0, 120))}`);
  }
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const question = typeof record.question === 'string' ? record.question.trim() : '';
  if (!question) throw new Error('the model answered without a "question"');
  const answer = typeof record.answer === 'string' && record.answer.trim() ? record.answer.trim() : null;
  return { question, expectedAnswer: answer };
}

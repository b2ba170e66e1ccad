import type { ChatMessage, ChatModel } from '../../ports/chat-model.port';
import type { EmbeddingProvider } from '../../ports/embedding-provider.port';
import { ANSWER_PROMPT_VERSION, answerMessages } from '../answer-prompt';
import { AnswerSanitizer } from '../answer-sanitizer';
import { EXTRACTIVE_ANSWERER_VERSION, extractiveAnswer } from '../extractive-answerer';
import type { ExtractiveOptions } from '../extractive-answerer';
import { GENERAL_PROMPT_VERSION, generalKnowledgeMessages } from '../general-prompt';
import { round } from '../../pipeline/stages/plan';
import { StageFailure, recordFailure, startRun } from './answer-run';
import type { AnswerOutcome, AnswerRun, AnswerSink } from './answer-run';
import { citeModelAnswer, citeQuotedAnswer } from './cite';
import { refuse } from './decide';

/** Sampling of grounded and general answers: deterministic, bounded. */
export const ANSWER_TEMPERATURE = 0;
export const ANSWER_MAX_TOKENS = 1024;

/**
 * The generate stage with a model: a grounded answer from the numbered passages, streamed through the
 * sanitiser (only valid citation markers, no links), then cited. A model that breaks off leaves what it
 * wrote (shown and cited) and the error is thrown on.
 */
export async function generateWithModel(run: AnswerRun, model: ChatModel): Promise<void> {
  const { outcome } = run;
  outcome.generator = 'llm';
  outcome.model = model.modelId;
  outcome.promptVersion = ANSWER_PROMPT_VERSION;
  const messages = answerMessages(
    outcome.query,
    outcome.passages.map((p) => ({
      marker: p.marker,
      title: p.title,
      headingPath: p.headingPath,
      text: p.text,
    })),
    outcome.standaloneQuery,
  );
  const sanitizer = new AnswerSanitizer(outcome.passages.length);
  try {
    await streamInto(run, model, messages, sanitizer);
  } catch (error) {
    citeModelAnswer(outcome, sanitizer.text, sanitizer.droppedMarkers, false);
    throw error;
  }
  citeModelAnswer(outcome, sanitizer.text, sanitizer.droppedMarkers, true);
}

/**
 * The generate stage offline: the passages' sentences most similar to the standalone query, quoted with
 * their markers (the extractive answerer), weighing the question's words as the index does when the
 * search read them; none close enough is a refusal.
 */
export async function generateExtractive(
  run: AnswerRun,
  embedder: EmbeddingProvider,
  options: Partial<ExtractiveOptions> | undefined,
): Promise<void> {
  const { outcome } = run;
  outcome.generator = 'extractive';
  outcome.model = embedder.modelId;
  outcome.promptVersion = EXTRACTIVE_ANSWERER_VERSION;
  const terms = outcome.search?.answerability?.terms.map((t) => ({ term: t.term, weight: t.idf }));
  const answer = await extractiveAnswer(
    outcome.standaloneQuery,
    outcome.passages.map((p) => ({
      marker: p.marker,
      text: p.text,
      context: [p.title, ...p.headingPath].filter(Boolean).join(' › '),
    })),
    embedder,
    options,
    run.signal,
    terms && terms.length > 0 ? terms : undefined,
  );
  if (answer.notFound) return refuse(run);
  citeQuotedAnswer(outcome, answer.text);
  outcome.text.split('\n').forEach((line, i) => run.emit(i === 0 ? line : `\n${line}`));
}

/**
 * The opt-in answer from the model's general knowledge (no retrieval, no citations; any marker or
 * link the model writes is removed).
 */
export async function generateGeneralAnswer(
  question: string,
  model: ChatModel,
  sink: AnswerSink = {},
  signal?: AbortSignal,
  now: () => number = () => performance.now(),
): Promise<AnswerOutcome> {
  const origin = {
    generator: 'llm',
    source: 'general-knowledge',
    model: model.modelId,
    promptVersion: GENERAL_PROMPT_VERSION,
  } as const;
  const run = startRun(question, origin, sink, signal, now);
  const { outcome } = run;
  const sanitizer = new AnswerSanitizer(0);
  try {
    await streamInto(run, model, generalKnowledgeMessages(question), sanitizer);
  } catch (error) {
    recordFailure(outcome, new StageFailure('llm_failed', error), signal);
  }
  outcome.text = sanitizer.text;
  outcome.droppedMarkers = [...sanitizer.droppedMarkers];
  outcome.timings.generation = round(now() - run.started);
  outcome.timings.total = outcome.timings.generation;
  return outcome;
}

/**
 * Streams the model's answer through the sanitiser to the sink, keeping its usage; what the sanitiser
 * holds back is written out also when the model breaks off.
 */
async function streamInto(
  run: AnswerRun,
  model: ChatModel,
  messages: ChatMessage[],
  sanitizer: AnswerSanitizer,
): Promise<void> {
  const { signal } = run;
  try {
    for await (const event of model.stream({
      messages,
      temperature: ANSWER_TEMPERATURE,
      maxTokens: ANSWER_MAX_TOKENS,
      signal,
    })) {
      if (event.type === 'token') run.emit(sanitizer.push(event.text));
      else run.outcome.usage = event.usage;
    }
    // An adapter that ends quietly on abort must not pass for a complete answer.
    signal?.throwIfAborted();
  } finally {
    run.emit(sanitizer.end());
  }
}

import type { ChatStreamEvent, SearchSettings } from '@lumina/shared';
import type { ApiClient } from '../lib/api-client';
import { isApiError } from '../lib/api-errors';
import { chatCollectionIds } from '../lib/collections';
import { findAssistant, type ChatStore } from './chat.store';

export interface ChatSessionDeps {
  api: Pick<ApiClient, 'streamChat' | 'streamGeneralAnswer'>;
  store: ChatStore;
  /** The merged settings at the moment of sending. */
  settings: () => SearchSettings;
  /** The picked collections at the moment of sending; none: every collection ("All collections"). */
  collectionIds?: () => readonly string[] | undefined;
  /**
   * Every live collection's id at the moment of sending (undefined while unknown): what "All collections"
   * sends in an open conversation, whose follow-ups the server otherwise searches in the collections the
   * conversation remembers.
   */
  everyCollectionId?: () => readonly string[] | undefined;
  /** Called when an answer settles (e.g. to refresh the conversation list). */
  onSettled?: (turnId: string) => void;
  /** Sees every event (e.g. to learn whether the server has a language model). */
  onEvent?: (event: ChatStreamEvent) => void;
}

export const CUT_OFF_MESSAGE = 'The answer was cut off before it finished. Try again.';
export const APP_ERROR_MESSAGE =
  'Something went wrong in the web app while answering. Reload the page and try again.';

/**
 * Sends questions and streams their answers into the chat store. One answer streams at a time;
 * `stop()` aborts its fetch, which the server sees as a client disconnect.
 */
export function createChatSession({
  api,
  store,
  settings,
  collectionIds = () => undefined,
  everyCollectionId = () => undefined,
  onSettled,
  onEvent,
}: ChatSessionDeps) {
  const running = new Map<string, AbortController>();

  /**
   * `{ collectionIds }`: the picked ones; with none picked, every live collection when a conversation is
   * open, else nothing (a new conversation searches every collection the key reads).
   */
  const scope = (): { collectionIds?: string[] } => {
    const inConversation = store.getState().conversationId !== null;
    const ids = chatCollectionIds(collectionIds() ?? [], inConversation, everyCollectionId());
    return ids ? { collectionIds: ids } : {};
  };

  async function run(id: string, open: (signal: AbortSignal) => AsyncIterable<ChatStreamEvent>) {
    const controller = new AbortController();
    running.set(id, controller);
    let ended = false;
    try {
      for await (const event of open(controller.signal)) {
        store.getState().apply(id, event);
        onEvent?.(event);
        if (event.event === 'done' || event.event === 'error') ended = true;
      }
      if (controller.signal.aborted) store.getState().stop(id);
      else if (!ended) store.getState().fail(id, CUT_OFF_MESSAGE, 'incomplete');
    } catch (error) {
      if (controller.signal.aborted) store.getState().stop(id);
      else if (isApiError(error)) {
        console.warn(`Chat failed (${error.code}): ${error.detail}`);
        store.getState().fail(id, error.message, error.code);
      } else {
        console.error('Chat failed', error);
        store.getState().fail(id, APP_ERROR_MESSAGE, 'unexpected');
      }
    } finally {
      running.delete(id);
      onSettled?.(id);
    }
  }

  function ask(question: string): { id: string; done: Promise<void> } {
    const sent = settings();
    const searched = scope();
    const state = store.getState();
    const conversationId = state.conversationId ?? undefined;
    const id = state.begin({ question, settings: sent });
    const done = run(id, (signal) =>
      api.streamChat({ message: question, settings: sent, conversationId, ...searched }, { signal }),
    );
    return { id, done };
  }

  /**
   * Asks `text` in place of a stored question: it and every later turn are replaced (the server deletes
   * them too). The same text regenerates the answer; a new one edits the question.
   */
  function resend(userTurnId: string, text: string): { id: string; done: Promise<void> } | null {
    const state = store.getState();
    const turn = state.turns.find((candidate) => candidate.id === userTurnId);
    const question = text.trim();
    if (!turn || turn.role !== 'user' || !turn.messageId || !state.conversationId || !question) return null;
    const sent = settings();
    const searched = scope();
    const conversationId = state.conversationId;
    const replaceMessageId = turn.messageId;
    state.truncateFrom(userTurnId);
    const id = store.getState().begin({ question, settings: sent });
    const done = run(id, (signal) =>
      api.streamChat(
        { message: question, settings: sent, conversationId, replaceMessageId, ...searched },
        { signal },
      ),
    );
    return { id, done };
  }

  return {
    ask,
    resend,

    /** Asks the question of an answer again, in its place. */
    regenerate(assistantTurnId: string): { id: string; done: Promise<void> } | null {
      const turns = store.getState().turns;
      const index = turns.findIndex((turn) => turn.id === assistantTurnId);
      const question = turns[index - 1];
      if (index < 1 || question?.role !== 'user') return null;
      return resend(question.id, question.text);
    },

    /** Aborts the answer that is streaming, keeping what arrived so far. */
    stop(): void {
      for (const controller of running.values()) controller.abort();
    },

    isRunning(): boolean {
      return running.size > 0;
    },

    /** Sends a failed or stopped question again, with the current settings. */
    retry(turnId: string): { id: string; done: Promise<void> } | null {
      const turn = findAssistant(store.getState(), turnId);
      if (!turn) return null;
      if (turn.kind === 'general' && turn.replyTo) {
        store.getState().discard(turnId);
        return this.answerFromGeneralKnowledge(turn.replyTo);
      }
      store.getState().discard(turnId);
      return ask(turn.question);
    },

    /** After a not-found answer: asks the server for an answer from general knowledge, labelled as such. */
    answerFromGeneralKnowledge(notFoundTurnId: string): { id: string; done: Promise<void> } | null {
      const state = store.getState();
      const turn = findAssistant(state, notFoundTurnId);
      if (!turn || !turn.messageId || !state.conversationId) return null;
      const input = { conversationId: state.conversationId, messageId: turn.messageId };
      const id = state.begin({ question: turn.question, settings: null, kind: 'general', replyTo: turn.id });
      const done = run(id, (signal) => api.streamGeneralAnswer(input, { signal }));
      return { id, done };
    },
  };
}

export type ChatSession = ReturnType<typeof createChatSession>;

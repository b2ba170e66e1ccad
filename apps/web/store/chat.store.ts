import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type {
  AnswerGenerator,
  AnswerSource,
  ChatRetrievalEvent,
  ChatStreamEvent,
  ChatTimings,
  ChatTokenUsage,
  Citation,
  Conversation,
  ConversationDetail,
  ConversationMessage,
  FeedbackRating,
  FeedbackReason,
  SearchSettings,
} from '@lumina/shared';
import { isFeedbackReason } from '@lumina/shared';

/** retrieving → streaming → done, or stopped (the person pressed Stop) or error. */
export type AnswerPhase = 'retrieving' | 'streaming' | 'done' | 'stopped' | 'error';

export interface UserTurn {
  id: string;
  role: 'user';
  text: string;
  /** The server's id of the question (known once its answer's retrieval arrives, or when loaded). */
  messageId?: string | null;
  createdAt: number;
}

export interface AssistantTurn {
  id: string;
  role: 'assistant';
  /** 'documents': a grounded answer; 'general': the opt-in answer from general knowledge. */
  kind: 'documents' | 'general';
  phase: AnswerPhase;
  /** The question it answers (kept for retry). */
  question: string;
  /** For a general answer: the not-found turn it follows. */
  replyTo: string | null;
  text: string;
  /** The passages ([1]..[n]), variants, HyDE and decisions the answer was written from. */
  retrieval: ChatRetrievalEvent | null;
  citations: Citation[];
  /** Markers the model wrote that named no passage (dropped by the server). */
  droppedMarkers: number[];
  /** An answer from the documents that cites no passage (shown as a warning). */
  uncited: boolean;
  notFound: boolean;
  /**
   * The server said whether POST /chat/general can answer this not-found question (it needs a
   * language model); null when it did not say (answers loaded from history, older servers).
   */
  generalKnowledgeAvailable: boolean | null;
  source: AnswerSource;
  generator: AnswerGenerator | null;
  model: string | null;
  /** The question as it was searched (rewritten to stand alone in a follow-up). */
  standaloneQuery: string | null;
  /** Known once the answer is done (not for answers loaded from history). */
  timings: ChatTimings | null;
  usage: ChatTokenUsage | null;
  /** The server's id of this answer (for the trace and the general-knowledge request). */
  messageId: string | null;
  error: string | null;
  errorCode: string | null;
  /** The settings the request carried. */
  settings: SearchSettings | null;
  /** This key's rating of the answer, once given (or loaded with the conversation). */
  feedback: TurnFeedback | null;
  createdAt: number;
}

/** A rating of an answer as the chat shows it. */
export interface TurnFeedback {
  rating: FeedbackRating;
  reasons: FeedbackReason[];
  note: string | null;
}

export type ChatTurn = UserTurn | AssistantTurn;

export type LoadState = 'idle' | 'loading' | 'ready' | 'error';

export interface ChatState {
  conversationId: string | null;
  turns: ChatTurn[];
  conversations: Conversation[];
  conversationsState: LoadState;
  conversationsError: string | null;
  /** Loading a stored conversation. */
  openingState: LoadState;
  openingError: string | null;

  /** Adds the question (unless it follows up a turn) and an assistant turn; returns the latter's id. */
  begin: (input: {
    question: string;
    settings: SearchSettings | null;
    kind?: AssistantTurn['kind'];
    replyTo?: string | null;
  }) => string;
  /** Applies one stream event to an unsettled assistant turn. */
  apply: (id: string, event: ChatStreamEvent) => void;
  /** Shows the rating given to an answer (null: withdrawn). */
  setFeedback: (id: string, feedback: TurnFeedback | null) => void;
  /** Ends an unsettled turn: stopped by the person, or failed with a sentence. */
  stop: (id: string) => void;
  fail: (id: string, message: string, code?: string | null) => void;
  /** Removes a question and every turn after it (before it is regenerated or edited and sent again). */
  truncateFrom: (turnId: string) => void;
  /** Removes a failed turn (and its question) before a retry sends it again. */
  discard: (id: string) => void;
  newConversation: () => void;
  setConversations: (state: LoadState, conversations?: Conversation[], error?: string | null) => void;
  upsertConversation: (conversation: Conversation) => void;
  removeConversation: (id: string) => void;
  setOpening: (state: LoadState, error?: string | null) => void;
  /** Shows a stored conversation. */
  load: (detail: ConversationDetail) => void;
}

let sequence = 0;

function localId(prefix: string): string {
  sequence += 1;
  return `${prefix}-${Date.now().toString(36)}-${sequence}`;
}

export function isSettled(turn: AssistantTurn): boolean {
  return turn.phase === 'done' || turn.phase === 'stopped' || turn.phase === 'error';
}

/** The pure state change of one stream event. */
export function applyEvent(turn: AssistantTurn, event: ChatStreamEvent): AssistantTurn {
  if (isSettled(turn)) return turn;
  switch (event.event) {
    case 'retrieval':
      return {
        ...turn,
        retrieval: event.data,
        standaloneQuery: event.data.standaloneQuery,
        phase: turn.phase === 'retrieving' ? 'streaming' : turn.phase,
      };
    case 'token':
      return { ...turn, text: turn.text + event.data.text, phase: 'streaming' };
    case 'citations':
      return {
        ...turn,
        citations: event.data.citations,
        droppedMarkers: event.data.droppedMarkers,
        uncited: event.data.uncited,
      };
    case 'done': {
      const done = event.data;
      return {
        ...turn,
        phase: 'done',
        notFound: done.notFound,
        generalKnowledgeAvailable: done.generalKnowledgeAvailable,
        source: turn.kind === 'general' ? 'general-knowledge' : done.source,
        generator: done.generator,
        model: done.model,
        timings: done.timings,
        usage: done.usage,
        messageId: done.messageId,
      };
    }
    case 'error':
      return {
        ...turn,
        phase: 'error',
        error: event.data.message,
        errorCode: event.data.code,
        messageId: event.data.messageId ?? turn.messageId,
      };
  }
}

/** A conversation id the events carry (the server creates one for a first question). */
export function conversationIdOf(event: ChatStreamEvent): string | null {
  if (event.event === 'retrieval' || event.event === 'done') return event.data.conversationId;
  if (event.event === 'error') return event.data.conversationId ?? null;
  return null;
}

function assistantFromStored(
  message: ConversationMessage,
  question: string,
  replyTo: string | null,
): AssistantTurn {
  const general = message.source === 'general-knowledge';
  const failed = message.status !== 'complete';
  return {
    id: localId('turn'),
    role: 'assistant',
    kind: general ? 'general' : 'documents',
    phase: message.status === 'cancelled' ? 'stopped' : failed ? 'error' : 'done',
    question,
    replyTo,
    text: message.content,
    retrieval: null,
    citations: message.citations,
    droppedMarkers: message.droppedMarkers,
    uncited: message.uncited,
    notFound: message.notFound,
    generalKnowledgeAvailable: null,
    source: message.source ?? 'documents',
    generator: message.generator,
    model: message.model,
    standaloneQuery: null,
    timings: null,
    usage: null,
    messageId: message.id,
    error: message.status === 'failed' ? (message.error ?? 'This answer did not finish.') : null,
    errorCode: null,
    settings: null,
    feedback: message.feedback
      ? {
          rating: message.feedback.rating,
          reasons: message.feedback.reasons.filter(isFeedbackReason),
          note: message.feedback.note,
        }
      : null,
    createdAt: Date.parse(message.createdAt) || Date.now(),
  };
}

export function createChatStore(now: () => number = Date.now) {
  return createStore<ChatState>()((set) => {
    const patch = (id: string, change: (turn: AssistantTurn) => AssistantTurn) =>
      set((state) => ({
        turns: state.turns.map((turn) => (turn.id === id && turn.role === 'assistant' ? change(turn) : turn)),
      }));

    return {
      conversationId: null,
      turns: [],
      conversations: [],
      conversationsState: 'idle',
      conversationsError: null,
      openingState: 'idle',
      openingError: null,

      begin: ({ question, settings, kind = 'documents', replyTo = null }) => {
        const turns: ChatTurn[] = [];
        if (kind === 'documents')
          turns.push({ id: localId('turn'), role: 'user', text: question, createdAt: now() });
        const assistant: AssistantTurn = {
          id: localId('turn'),
          role: 'assistant',
          kind,
          phase: 'retrieving',
          question,
          replyTo,
          text: '',
          retrieval: null,
          citations: [],
          droppedMarkers: [],
          uncited: false,
          notFound: false,
          generalKnowledgeAvailable: null,
          source: kind === 'general' ? 'general-knowledge' : 'documents',
          generator: null,
          model: null,
          standaloneQuery: null,
          timings: null,
          usage: null,
          messageId: null,
          error: null,
          errorCode: null,
          settings,
          feedback: null,
          createdAt: now(),
        };
        turns.push(assistant);
        set((state) => ({ turns: [...state.turns, ...turns] }));
        return assistant.id;
      },

      setFeedback: (id, feedback) => patch(id, (turn) => ({ ...turn, feedback })),

      apply: (id, event) => {
        const conversationId = conversationIdOf(event);
        const questionId = event.event === 'retrieval' ? event.data.userMessageId : null;
        set((state) => {
          const at = state.turns.findIndex((turn) => turn.id === id);
          return {
            conversationId: state.conversationId ?? conversationId,
            turns: state.turns.map((turn, index) => {
              if (turn.id === id && turn.role === 'assistant') return applyEvent(turn, event);
              // The question this answer follows learns its server id.
              if (questionId && index === at - 1 && turn.role === 'user')
                return { ...turn, messageId: questionId };
              return turn;
            }),
          };
        });
      },

      truncateFrom: (turnId) =>
        set((state) => {
          const index = state.turns.findIndex((turn) => turn.id === turnId);
          return index === -1 ? state : { turns: state.turns.slice(0, index) };
        }),

      stop: (id) => patch(id, (turn) => (isSettled(turn) ? turn : { ...turn, phase: 'stopped' })),

      fail: (id, message, code = null) =>
        patch(id, (turn) =>
          isSettled(turn) ? turn : { ...turn, phase: 'error', error: message, errorCode: code },
        ),

      discard: (id) =>
        set((state) => {
          const index = state.turns.findIndex((turn) => turn.id === id);
          if (index === -1) return state;
          const turn = state.turns[index];
          const previous = state.turns[index - 1];
          const dropQuestion =
            turn.role === 'assistant' && turn.kind === 'documents' && previous?.role === 'user';
          return {
            turns: state.turns.filter(
              (candidate, position) => position !== index && !(dropQuestion && position === index - 1),
            ),
          };
        }),

      newConversation: () =>
        set({ conversationId: null, turns: [], openingState: 'idle', openingError: null }),

      setConversations: (conversationsState, conversations, error = null) =>
        set((state) => ({
          conversationsState,
          conversations: conversations ?? state.conversations,
          conversationsError: error,
        })),

      upsertConversation: (conversation) =>
        set((state) => {
          const others = state.conversations.filter((item) => item.id !== conversation.id);
          return { conversations: [conversation, ...others] };
        }),

      removeConversation: (id) =>
        set((state) => ({
          conversations: state.conversations.filter((item) => item.id !== id),
          ...(state.conversationId === id ? { conversationId: null, turns: [] } : {}),
        })),

      setOpening: (openingState, error = null) => set({ openingState, openingError: error }),

      load: (detail) => {
        const turns: ChatTurn[] = [];
        let lastQuestion = '';
        let lastAssistant: AssistantTurn | null = null;
        for (const message of detail.messages.items) {
          if (message.role === 'user') {
            lastQuestion = message.content;
            turns.push({
              id: localId('turn'),
              role: 'user',
              text: message.content,
              messageId: message.id,
              createdAt: Date.parse(message.createdAt) || now(),
            });
          } else {
            const replyTo =
              message.source === 'general-knowledge' && lastAssistant?.notFound ? lastAssistant.id : null;
            const turn = assistantFromStored(message, lastQuestion, replyTo);
            turns.push(turn);
            lastAssistant = turn;
          }
        }
        set({ conversationId: detail.id, turns, openingState: 'ready', openingError: null });
      },
    };
  });
}

export type ChatStore = ReturnType<typeof createChatStore>;

/** The open conversation (the server keeps the history; this is the screen's copy). */
export const chatStore: ChatStore = createChatStore();

export function useChatStore<T>(selector: (state: ChatState) => T): T {
  return useStore(chatStore, selector);
}

export function selectIsBusy(state: ChatState): boolean {
  return state.turns.some((turn) => turn.role === 'assistant' && !isSettled(turn));
}

export function findAssistant(state: ChatState, id: string): AssistantTurn | undefined {
  const turn = state.turns.find((candidate) => candidate.id === id);
  return turn?.role === 'assistant' ? turn : undefined;
}

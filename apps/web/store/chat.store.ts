import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { SearchResponse } from '../lib/api-types';

export type ChatRole = 'user' | 'assistant';
export type MessageStatus = 'pending' | 'done' | 'error';

export interface ChatMessage {
  id: string;
  role: ChatRole;
  status: MessageStatus;
  /** The question (user) or a short summary line (assistant). */
  text: string;
  createdAt: number;
  /** Assistant turns: the passages the search found. */
  search?: SearchResponse;
  /** Assistant turns that failed: a sentence for a person. */
  error?: string;
}

export interface ChatState {
  messages: ChatMessage[];
  /** Adds the question and a pending assistant turn; returns the assistant turn's id. */
  ask: (question: string) => string;
  resolve: (id: string, search: SearchResponse) => void;
  fail: (id: string, error: string) => void;
  clear: () => void;
}

let sequence = 0;

function nextId(): string {
  sequence += 1;
  return `msg-${Date.now().toString(36)}-${sequence}`;
}

function summarise(search: SearchResponse): string {
  const count = search.results.length;
  if (search.belowThreshold || count === 0) return "The documents don't say.";
  return `Found ${count} relevant passage${count === 1 ? '' : 's'}.`;
}

export function createChatStore(now: () => number = Date.now) {
  return createStore<ChatState>()((set) => {
    const update = (id: string, patch: Partial<ChatMessage>) =>
      set((state) => ({
        messages: state.messages.map((message) =>
          message.id === id && message.status === 'pending' ? { ...message, ...patch } : message,
        ),
      }));

    return {
      messages: [],
      ask: (question) => {
        const user: ChatMessage = {
          id: nextId(),
          role: 'user',
          status: 'done',
          text: question,
          createdAt: now(),
        };
        const assistant: ChatMessage = {
          id: nextId(),
          role: 'assistant',
          status: 'pending',
          text: 'Searching your documents…',
          createdAt: now(),
        };
        set((state) => ({ messages: [...state.messages, user, assistant] }));
        return assistant.id;
      },
      resolve: (id, search) => update(id, { status: 'done', search, text: summarise(search) }),
      fail: (id, error) => update(id, { status: 'error', error, text: error }),
      clear: () => set({ messages: [] }),
    };
  });
}

export type ChatStore = ReturnType<typeof createChatStore>;

/** The current conversation; not persisted (conversations will live on the server). */
export const chatStore: ChatStore = createChatStore();

export function useChatStore<T>(selector: (state: ChatState) => T): T {
  return useStore(chatStore, selector);
}

export function selectIsBusy(state: ChatState): boolean {
  return state.messages.some((message) => message.status === 'pending');
}

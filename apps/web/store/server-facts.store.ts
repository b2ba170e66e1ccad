import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { ChatStreamEvent } from '@lumina/shared';

/**
 * What the answers themselves revealed about the server, for when its status report is silent:
 * an answer written by 'llm' (or variants written by it) means a language model is configured; an
 * 'extractive' answer or 'prf' variants mean it is not.
 */
export interface ServerFacts {
  llm: 'configured' | 'not-configured' | 'unknown';
  /** The model id the last LLM-written answer named. */
  model: string | null;
  observe: (event: ChatStreamEvent) => void;
}

export function createServerFactsStore() {
  return createStore<ServerFacts>()((set) => ({
    llm: 'unknown',
    model: null,
    observe: (event) => {
      if (event.event === 'done') {
        if (event.data.generator === 'llm') set({ llm: 'configured', model: event.data.model });
        else if (event.data.generator === 'extractive') set({ llm: 'not-configured', model: null });
      } else if (event.event === 'retrieval') {
        const source = event.data.expansions?.source ?? event.data.hyde?.source;
        if (source === 'llm') set({ llm: 'configured' });
        else if (source === 'prf') set({ llm: 'not-configured' });
      }
    },
  }));
}

export const serverFactsStore = createServerFactsStore();

export function useServerFacts<T>(selector: (state: ServerFacts) => T): T {
  return useStore(serverFactsStore, selector);
}

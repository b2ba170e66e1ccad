import { LlmHydeGenerator, LlmQueryExpander } from '@lumina/rag';
import type { ChatModel, AnyReranker, SearchPorts } from '@lumina/rag';
import type { Env } from '../../config/env.schema';
import { createChatModel, createLocalChatModel, searchModel } from '../../providers/create-chat-model';
import { createReranker } from '../../providers/create-reranker';
import { LocalChatModel } from '../../providers/local-chat-model';

export type LlmSearchPorts = Partial<Pick<SearchPorts, 'expander' | 'hyde' | 'reranker'>>;

/**
 * The search's LLM ports: with a chat model, expansion and HyDE are written by it (labelled `llm`);
 * without one they stay offline (pseudo-relevance feedback, labelled `prf`). The reranker is whatever
 * the providers configured (a /v1/rerank endpoint, the chat model listwise, or none).
 */
export function llmSearchPorts(chat: ChatModel | null, reranker: AnyReranker | null): LlmSearchPorts {
  return {
    ...(chat ? { expander: llmExpander(chat), hyde: new LlmHydeGenerator(chat) } : {}),
    ...(reranker ? { reranker } : {}),
  };
}

/**
 * The expander for a chat model: endpoints get the JSON prompt; the small local model gets example
 * exchanges and one rewrite per line, held to that many lines by a grammar (it answered the JSON prompt
 * with prose or the query again), and a token budget a short query needs instead of the model's cap.
 */
export function llmExpander(
  chat: ChatModel,
  format: 'json' | 'lines' = chat instanceof LocalChatModel ? 'lines' : 'json',
): LlmQueryExpander {
  return new LlmQueryExpander(chat, { format });
}

/**
 * The LLM ports the environment configures, for searches built outside Nest (the eval and bench CLIs):
 * the endpoint's chat model, else the local model of LLM_PROVIDER=local (a missing file throws: a
 * measurement must not quietly run offline).
 */
export function llmSearchPortsFromEnv(env: Env): LlmSearchPorts {
  const chat = createChatModel(env);
  const local = createLocalChatModel(env);
  if (local.state === 'missing') throw new Error(local.reason);
  return llmSearchPorts(searchModel(chat, local), createReranker(env, chat));
}

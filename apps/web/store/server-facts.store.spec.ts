import type { ChatStreamEvent } from '@lumina/shared';
import { createServerFactsStore } from './server-facts.store';

const done = (generator: 'llm' | 'extractive' | 'none', model: string | null = null): ChatStreamEvent => ({
  event: 'done',
  data: {
    conversationId: 'c',
    messageId: 'm',
    notFound: false,
    source: 'documents',
    generator,
    model,
    timings: { rewrite: 0, search: 1, generation: 0, firstToken: null, total: 1 },
    usage: null,
    generalKnowledgeAvailable: false,
  },
});

const retrieval = (source: string | null): ChatStreamEvent => ({
  event: 'retrieval',
  data: {
    conversationId: 'c',
    userMessageId: 'u',
    query: 'q',
    standaloneQuery: 'q',
    rewrite: 'none',
    rewriteReason: null,
    passages: [],
    expansions: source ? { source, variants: [] } : null,
    hyde: null,
    adaptive: null,
    belowThreshold: false,
    answerability: null,
    warnings: [],
    timings: { rewrite: 0, search: 1 },
  },
});

describe('server facts', () => {
  it('learns from the answers whether a language model is configured', () => {
    const facts = createServerFactsStore();
    expect(facts.getState().llm).toBe('unknown');
    facts.getState().observe(done('none'));
    expect(facts.getState().llm).toBe('unknown');
    facts.getState().observe(retrieval('prf'));
    expect(facts.getState().llm).toBe('not-configured');
    facts.getState().observe(done('llm', 'gpt-x'));
    expect(facts.getState()).toMatchObject({ llm: 'configured', model: 'gpt-x' });
    facts.getState().observe(done('extractive'));
    expect(facts.getState()).toMatchObject({ llm: 'not-configured', model: null });
  });
});

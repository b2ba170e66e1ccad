import type { ChatEventView } from '../lib/api/chat';
import type { SearchResponseView } from '../lib/api/search';
import { createServerFactsStore } from './server-facts.store';

const done = (generator: 'llm' | 'extractive' | 'none', model: string | null = null): ChatEventView => ({
  type: 'done',
  done: {
    conversationId: 'c',
    messageId: 'm',
    notFound: false,
    source: 'documents',
    generator,
    model,
    timings: {},
    usage: {},
    generalKnowledgeAvailable: null,
  },
});

const retrieval = (source: string | null): ChatEventView => ({
  type: 'retrieval',
  conversationId: 'c',
  standaloneQuery: 'q',
  search: {
    results: [],
    expansions: source ? { source, variants: [] } : null,
    hyde: null,
    timings: {},
    warnings: [],
    belowThreshold: false,
    answerability: null,
    adaptive: null,
  } as SearchResponseView,
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

import { FakeChatModel } from '../testing/fake-chat-model';
import { LlmHydeGenerator, cleanPassage } from './llm-hyde-generator';
import { LlmQueryExpander } from './llm-query-expander';
import { EXPANSION_LINES_PROMPT_VERSION, EXPANSION_PROMPT_VERSION } from './prompts/expansion.prompt';
import { HYDE_PROMPT_VERSION } from './prompts/hyde.prompt';

const signal = new AbortController().signal;

describe('LlmQueryExpander', () => {
  it('asks for exactly N variants of the query and parses them', async () => {
    const chat = new FakeChatModel('{"queries": ["a b", "c d", "e f"]}');
    const expander = new LlmQueryExpander(chat);
    await expect(expander.expand('replica failover', 3, signal)).resolves.toEqual(['a b', 'c d', 'e f']);
    const [request] = chat.requests;
    expect(request.signal).toBe(signal);
    expect(request.temperature).toBe(0);
    const prompt = request.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('replica failover');
    expect(prompt).toMatch(/exactly 3 different search queries/);
    expect(expander.modelId).toBe(`fake-llm/${EXPANSION_PROMPT_VERSION}`);
  });

  it('with the lines format: example exchanges, one rewrite per line, N lines and a short budget', async () => {
    const chat = new FakeChatModel(
      'replica failover\npromote the standby replica\npromote the standby replica\n',
    );
    const expander = new LlmQueryExpander(chat, { format: 'lines' });
    await expect(expander.expand('replica failover', 3, signal)).resolves.toEqual([
      'promote the standby replica',
    ]);
    const [request] = chat.requests;
    expect(request.lines).toBe(3);
    expect(request.maxTokens).toBe(96);
    expect(request.json).toBeUndefined();
    expect(request.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(request.messages[0].content).toMatch(/Write 3 different search queries .* one per line/);
    for (const example of [request.messages[2], request.messages[4]]) {
      expect(example.content.split('\n')).toHaveLength(3);
    }
    expect(request.messages[5].content).toBe('Search query: replica failover');
    expect(expander.modelId).toBe(`fake-llm/${EXPANSION_LINES_PROMPT_VERSION}`);
  });

  it('the JSON format sends no line count', async () => {
    const chat = new FakeChatModel('["a b"]');
    await new LlmQueryExpander(chat).expand('replica failover', 2, signal);
    expect(chat.requests[0].lines).toBeUndefined();
  });

  it('turns malformed output into an error (the search reports it as a warning)', async () => {
    const expander = new LlmQueryExpander(new FakeChatModel('{"queries": oops'));
    await expect(expander.expand('replica failover', 3, signal)).rejects.toThrow(/not valid JSON/);
  });

  it('passes the chat model errors through', async () => {
    const expander = new LlmQueryExpander(new FakeChatModel(new Error('the chat endpoint answered 503')));
    await expect(expander.expand('q', 2, signal)).rejects.toThrow('the chat endpoint answered 503');
  });
});

describe('LlmHydeGenerator', () => {
  it('asks for a short passage in the corpus style and returns it cleaned', async () => {
    const chat = new FakeChatModel('Here is a passage:\n"Promote the standby with pg_ctl promote."');
    const generator = new LlmHydeGenerator(chat, {
      corpusStyle: 'runbooks of an operations team',
      words: 80,
    });
    await expect(generator.generate('how to fail over', signal)).resolves.toBe(
      'Promote the standby with pg_ctl promote.',
    );
    const prompt = chat.requests[0].messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('how to fail over');
    expect(prompt).toContain('runbooks of an operations team');
    expect(prompt).toContain('about 80 words');
    expect(generator.modelId).toBe(`fake-llm/${HYDE_PROMPT_VERSION}`);
  });

  it('throws on an empty passage (or one that was all reasoning)', async () => {
    await expect(new LlmHydeGenerator(new FakeChatModel('  ')).generate('q', signal)).rejects.toThrow(
      /no HyDE passage/,
    );
    await expect(
      new LlmHydeGenerator(new FakeChatModel('<think>hmm, the question is about')).generate('q', signal),
    ).rejects.toThrow(/no HyDE passage/);
  });

  it('cuts a long passage at a word boundary', () => {
    const passage = cleanPassage('word '.repeat(1000), 100);
    expect(passage.length).toBeLessThanOrEqual(100);
    expect(passage.endsWith('word')).toBe(true);
  });
});

import { FakeChatModel } from '../testing/fake-chat-model';
import { LlmListwiseReranker } from './llm-listwise-reranker';
import { parseOrdering } from './parse-ordering';

const signal = new AbortController().signal;

describe('parseOrdering', () => {
  it.each([
    ['a JSON array', '[3, 1, 2, 4]'],
    ['a JSON object', '{"ranking": [3, 1, 2, 4]}'],
    ['bracketed numbers', '[3] > [1] > [2] > [4]'],
    ['a sentence and a fence', 'The order is:\n```\n3, 1, 2, 4\n```'],
    ['string numbers', '["[3]", "1", "2", "4"]'],
    ['reasoning first', '<think>passage 4 mentions 1999</think>[3, 1, 2, 4]'],
  ])('reads %s', (_label, output) => {
    expect(parseOrdering(output, 4)).toEqual([2, 0, 1, 3]);
  });

  it('skips repeats and out-of-range numbers, and appends the passages left out in their order', () => {
    expect(parseOrdering('[4, 4, 9, 0, 2]', 5)).toEqual([3, 1, 0, 2, 4]);
  });

  it.each(['I cannot rank these.', '[]', '[7, 8]', ''])('throws when no passage is named: %p', (output) => {
    expect(() => parseOrdering(output, 5)).toThrow(/names none of the 5 passages/);
  });
});

describe('LlmListwiseReranker', () => {
  it('lists numbered passages with the query and scores them in the order the model gave', async () => {
    const chat = new FakeChatModel('[2, 3, 1]');
    const scores = await new LlmListwiseReranker(chat).rerank('failover', ['alpha', 'beta', 'gamma'], signal);
    expect(scores.map((s) => Number(s.toFixed(9)))).toEqual([0.333333333, 1, 0.666666667]);
    const prompt = chat.requests[0].messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('Query: failover');
    expect(prompt).toContain('[1] alpha\n[2] beta\n[3] gamma');
    expect(chat.requests[0].signal).toBe(signal);
  });

  it('shows at most maxPassages, cut to maxPassageChars; the rest score below, in their order', async () => {
    const chat = new FakeChatModel('[2, 1]');
    const scores = await new LlmListwiseReranker(chat, { maxPassages: 2, maxPassageChars: 5 }).rerank(
      'q',
      ['first passage', 'second passage', 'third', 'fourth'],
      signal,
    );
    expect(scores).toEqual([0.5, 1, -0.25, -0.5]);
    expect(chat.requests[0].messages[1].content).toContain('[1] first\n[2] secon\n');
    expect(chat.requests[0].messages[1].content).not.toContain('third');
  });

  it('throws on an answer that names no passage', async () => {
    await expect(
      new LlmListwiseReranker(new FakeChatModel('no idea')).rerank('q', ['a', 'b'], signal),
    ).rejects.toThrow(/names none/);
  });

  it('does not call the model for no passages', async () => {
    const chat = new FakeChatModel('[1]');
    await expect(new LlmListwiseReranker(chat).rerank('q', [], signal)).resolves.toEqual([]);
    expect(chat.requests).toHaveLength(0);
  });
});

import type { EmbeddingProvider } from '../ports/embedding-provider.port';
import { CoalescingEmbedder } from './coalescing-embedder';

/** An embedder that records its calls and answers after a turn of the event loop. */
class RecordingEmbedder implements EmbeddingProvider {
  readonly modelId = 'fake';
  readonly dimension = 1;
  readonly maxInputChars = 100;
  readonly calls: string[][] = [];
  failNext = false;

  async embed(texts: string[]): Promise<number[][]> {
    this.calls.push(texts);
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (this.failNext) {
      this.failNext = false;
      throw new Error('endpoint down');
    }
    return texts.map((text) => [text.length]);
  }
}

describe('CoalescingEmbedder', () => {
  it('passes a lone request straight through', async () => {
    const inner = new RecordingEmbedder();
    expect(await new CoalescingEmbedder(inner, 10).embed(['ab', 'c'])).toEqual([[2], [1]]);
    expect(inner.calls).toEqual([['ab', 'c']]);
  });

  it("passes on the model's identity and query prefix", () => {
    const inner = Object.assign(new RecordingEmbedder(), { queryPrefix: 'query: ' });
    expect(new CoalescingEmbedder(inner, 10)).toMatchObject({
      modelId: 'fake',
      dimension: 1,
      maxInputChars: 100,
      queryPrefix: 'query: ',
    });
  });

  it('merges requests made while a call is in flight, and gives each caller its own vectors', async () => {
    const inner = new RecordingEmbedder();
    const embedder = new CoalescingEmbedder(inner, 10);
    const results = await Promise.all([
      embedder.embed(['a']),
      embedder.embed(['bb', 'ccc']),
      embedder.embed(['dddd']),
      embedder.embed(['eeeee']),
    ]);
    expect(results).toEqual([[[1]], [[2], [3]], [[4]], [[5]]]);
    expect(inner.calls).toEqual([['a'], ['bb', 'ccc', 'dddd', 'eeeee']]);
  });

  it('keeps merged calls within the batch limit (a larger request still goes alone)', async () => {
    const inner = new RecordingEmbedder();
    const embedder = new CoalescingEmbedder(inner, 3);
    await Promise.all([
      embedder.embed(['a']),
      embedder.embed(['b', 'c']),
      embedder.embed(['d', 'e']),
      embedder.embed(['f', 'g', 'h', 'i']),
    ]);
    expect(inner.calls).toEqual([['a'], ['b', 'c'], ['d', 'e'], ['f', 'g', 'h', 'i']]);
  });

  it('fails only the requests of a failed call and carries on', async () => {
    const inner = new RecordingEmbedder();
    const embedder = new CoalescingEmbedder(inner, 10);
    const first = embedder.embed(['a']);
    inner.failNext = true;
    const results = await Promise.allSettled([first, embedder.embed(['b'])]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled']);
    expect(await embedder.embed(['c'])).toEqual([[1]]);
  });
});

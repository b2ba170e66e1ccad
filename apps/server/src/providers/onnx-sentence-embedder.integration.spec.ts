import { MINILM_L6_V2_INT8 } from './local-models/catalogue';
import { withRealModel } from '../test/helpers/real-model';
import { OnnxSentenceEmbedder } from './onnx-sentence-embedder';

function cosine(a: number[], b: number[]): number {
  return a.reduce((sum, value, i) => sum + value * b[i], 0);
}

const { describe: describeWithModel, modelsDir: MODELS_DIR } = withRealModel(MINILM_L6_V2_INT8);

describeWithModel('OnnxSentenceEmbedder with all-MiniLM-L6-v2 (the real model from MODELS_DIR)', () => {
  jest.setTimeout(120_000);
  const embedder = new OnnxSentenceEmbedder({ modelsDir: MODELS_DIR });
  const batched = new OnnxSentenceEmbedder({ modelsDir: MODELS_DIR, batchSize: 8 });

  it('embeds into normalised 384-d vectors that place a question near its answer, not near unrelated text', async () => {
    const [question, answer, unrelated, paraphrase] = await embedder.embed([
      'How do I connect to Redis Sentinel?',
      'To connect to a group of Redis Sentinels, pass the sentinels and the master name to the client.',
      'Quarterly corporate tax filings are due in April.',
      'Connecting to Sentinel in Redis: how?',
    ]);
    for (const vector of [question, answer, unrelated, paraphrase]) {
      expect(vector).toHaveLength(384);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    }
    expect(cosine(question, answer)).toBeGreaterThan(cosine(question, unrelated) + 0.3);
    expect(cosine(question, paraphrase)).toBeGreaterThan(0.8);
  });

  it('keeps the order, and a text gets nearly the same vector alone or among others of other lengths', async () => {
    const texts = Array.from({ length: 21 }, (_, i) =>
      `Passage ${i} about topic ${i % 4}. `.repeat(1 + (i % 5) * 6),
    );
    const together = await batched.embed(texts);
    const alone = await Promise.all(texts.map(async (text) => (await embedder.embed([text]))[0]));
    // int8 activations are quantised per batch, so a batch moves a vector by a hair, never more.
    together.forEach((vector, i) => expect(cosine(vector, alone[i])).toBeGreaterThan(0.995));
    const nearest = together.map((vector) =>
      alone.reduce((best, other, j) => (cosine(vector, other) > cosine(vector, alone[best]) ? j : best), 0),
    );
    expect(nearest).toEqual(texts.map((_, i) => i));
  });

  it('reads a text past the model window (256 word pieces) by its beginning only, and embeds an empty text', async () => {
    const beginning = 'Kafka consumers commit offsets to the group coordinator. '.repeat(2);
    const filler = 'Filler words that say nothing about anything at all. '.repeat(60);
    const [oneEnd, otherEnd, empty] = await embedder.embed([
      `${beginning}${filler}It ends with apples and pears.`,
      `${beginning}${filler}Quantum chromodynamics describes the strong force.`,
      '',
    ]);
    expect(cosine(oneEnd, otherEnd)).toBeGreaterThan(0.9999);
    expect(Math.hypot(...empty)).toBeCloseTo(1, 5);
  });

  it('refuses to start on a folder without the model, naming the file', async () => {
    const missing = new OnnxSentenceEmbedder({ modelsDir: '/nonexistent-models-dir' });
    await expect(missing.embed(['text'])).rejects.toThrow(
      /all-minilm-l6-v2-int8 embedding model failed: .*tokenizer.json/s,
    );
  });
});

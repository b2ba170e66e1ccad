import { LocalUseEmbedder } from './local-use-embedder';

function cosine(a: number[], b: number[]): number {
  return a.reduce((sum, value, i) => sum + value * b[i], 0);
}

describe('LocalUseEmbedder', () => {
  jest.setTimeout(120_000);

  it('embeds into normalised 512-d vectors that place paraphrases closer than unrelated text', async () => {
    const embedder = new LocalUseEmbedder();
    const [cat, kitten, tax] = await embedder.embed([
      'The cat sat on the mat.',
      'A kitten was sitting on the rug.',
      'Quarterly corporate tax filings are due in April.',
    ]);
    for (const vector of [cat, kitten, tax]) {
      expect(vector).toHaveLength(512);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    }
    expect(cosine(cat, kitten)).toBeGreaterThan(cosine(cat, tax) + 0.1);
  });

  it('gives the same vector for the same text whatever the batch around it, and keeps the order', async () => {
    const embedder = new LocalUseEmbedder(2);
    const texts = Array.from({ length: 7 }, (_, i) => `Sentence number ${i} about topic ${i % 3}.`);
    const together = await embedder.embed(texts);
    const alone = await Promise.all(texts.map(async (text) => (await embedder.embed([text]))[0]));
    together.forEach((vector, i) => expect(cosine(vector, alone[i])).toBeCloseTo(1, 5));
  });

  it('computes on its own thread: the main thread keeps running timers while the model works', async () => {
    const embedder = new LocalUseEmbedder();
    await embedder.embed(['warm-up']);
    const texts = Array.from({ length: 48 }, (_, i) => `A longer passage ${i} `.repeat(40));
    let ticks = 0;
    let longestGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, 5);
    const started = performance.now();
    await embedder.embed(texts);
    const elapsed = performance.now() - started;
    clearInterval(timer);
    // On the main thread the model would block the loop for a whole batch at a time (hundreds of ms).
    expect(elapsed).toBeGreaterThan(100);
    expect(ticks).toBeGreaterThan(elapsed / 50);
    expect(longestGap).toBeLessThan(Math.max(100, elapsed / 4));
  });

  it('keeps the process alive while it waits for vectors, and not once they have come', async () => {
    const ports = () => process.getActiveResourcesInfo().filter((kind) => kind === 'MessagePort').length;
    const embedder = new LocalUseEmbedder();
    await embedder.embed(['warm-up']);
    await new Promise((resolve) => setImmediate(resolve));
    const idle = ports();
    const pending = embedder.embed(['hello']);
    expect(ports()).toBe(idle + 1);
    await pending;
    await new Promise((resolve) => setImmediate(resolve));
    expect(ports()).toBe(idle);
  });

  it('refuses at once when the caller has already given up', async () => {
    const controller = new AbortController();
    controller.abort(new Error('client went away'));
    await expect(new LocalUseEmbedder().embed(['text'], controller.signal)).rejects.toThrow(
      'client went away',
    );
  });
});

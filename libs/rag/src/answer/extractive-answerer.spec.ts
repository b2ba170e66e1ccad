import type { EmbeddingProvider } from '../ports/embedding-provider.port';
import {
  candidateSentences,
  cosineSimilarity,
  extractiveAnswer,
  formatExtractiveAnswer,
  selectSentences,
  wordOverlap,
} from './extractive-answerer';

/** An embedder over a tiny vocabulary: one dimension per topic word, so similarities are exact. */
class TopicEmbedder implements EmbeddingProvider {
  readonly modelId = 'topics';
  readonly dimension = 4;
  readonly maxInputChars = 1000;
  readonly calls: string[][] = [];
  private readonly topics = ['replica', 'backup', 'redis', 'access'];

  async embed(texts: string[]): Promise<number[][]> {
    this.calls.push(texts);
    return texts.map((text) => this.topics.map((topic) => (text.toLowerCase().includes(topic) ? 1 : 0)));
  }
}

const passages = [
  {
    marker: 1,
    context: 'Runbook › Failover',
    text: '# Failover\n\nPromote the standby replica now. Then repoint the replica clients. See below.',
  },
  { marker: 2, text: 'Nightly backup runs at two. Redis holds the queues.' },
];

describe('extractive answerer', () => {
  it('splits passages into quotable sentences: no headings, no tiny sentences, no repeats', () => {
    const candidates = candidateSentences([
      ...passages,
      { marker: 3, text: 'Promote the standby replica now.' },
    ]);
    expect(candidates.map((c) => [c.marker, c.text])).toEqual([
      [1, 'Promote the standby replica now.'],
      [1, 'Then repoint the replica clients.'],
      [2, 'Nightly backup runs at two.'],
      [2, 'Redis holds the queues.'],
    ]);
    expect(passages[0].text.slice(candidates[0].start, candidates[0].end)).toBe(
      'Promote the standby replica now.',
    );
  });

  it('selects the most similar sentences above the floor, in reading order', () => {
    const candidates = candidateSentences(passages);
    const picked = selectSentences(candidates, [0.5, 0.9, 0.1, 0.8], {
      maxSentences: 2,
      minSimilarity: 0.3,
      lexicalWeight: 0,
      relativeFloor: 0.5,
      minWords: 3,
      maxSentenceChars: 400,
    });
    expect(picked.map((s) => s.text)).toEqual([
      'Then repoint the replica clients.',
      'Redis holds the queues.',
    ]);
  });

  it('selects nothing when the best sentence is under the threshold', () => {
    expect(selectSentences(candidateSentences(passages), [0.1, 0.2, 0.1, 0.05])).toEqual([]);
  });

  it('quotes each sentence with its marker', () => {
    expect(
      formatExtractiveAnswer(
        [
          { marker: 2, text: 'Redis holds the queues.', context: '', start: 0, end: 1, similarity: 1 },
          { marker: 1, text: 'x'.repeat(12), context: '', start: 0, end: 1, similarity: 1 },
        ],
        10,
      ),
    ).toBe('- “Redis hold…” [2]\n- “xxxxxxxxxx…” [1]');
  });

  it('answers from the passages with markers, embedding sentences with their context', async () => {
    const embedder = new TopicEmbedder();
    const answer = await extractiveAnswer('Where does the replica go?', passages, embedder);
    expect(answer.notFound).toBe(false);
    expect(answer.text).toBe(
      '- “Promote the standby replica now.” [1]\n- “Then repoint the replica clients.” [1]',
    );
    expect(answer.sentences.map((s) => s.marker)).toEqual([1, 1]);
    expect(embedder.calls[0][1]).toBe('Runbook › Failover: Promote the standby replica now.');
  });

  it('refuses when nothing is similar enough', async () => {
    const answer = await extractiveAnswer('What is the capital of France?', passages, new TopicEmbedder());
    expect(answer).toEqual({ text: '', sentences: [], notFound: true, bestSimilarity: 0 });
  });

  it('computes cosine similarity and word overlap', () => {
    expect(cosineSimilarity([1, 0], [2, 0])).toBeCloseTo(1);
    expect(cosineSimilarity([1, 0], [0, 3])).toBeCloseTo(0);
    expect(wordOverlap('When do the backups fail?', 'Failover: nightly backup')).toBe(1);
    expect(wordOverlap('Who approves access?', 'Redis holds queues')).toBe(0);
  });
});

import { normalizeInPlace, SeededRandom } from './seeded-random';
import { buildVocabulary } from './vocabulary';
import { ZipfSampler } from './zipf-sampler';

export interface SyntheticCorpusOptions {
  chunks: number;
  dimension: number;
  queries: number;
  seed?: number;
}

export interface SyntheticDocument {
  id: string;
  title: string;
  topic: number;
  firstChunk: number;
  chunkCount: number;
  byteSize: number;
}

export interface SyntheticQuery {
  text: string;
  /** Unit vector, as an embedder would return for the text. */
  vector: Float32Array;
  document: number;
}

/** Chunks are stored column-wise: index i is the i-th chunk everywhere. */
export interface SyntheticCorpus {
  dimension: number;
  documents: SyntheticDocument[];
  chunkIds: string[];
  chunkDocument: Int32Array;
  chunkOrdinal: Int32Array;
  texts: string[];
  spanStart: Int32Array;
  spanEnd: Int32Array;
  /** chunks × dimension, row-major, each row a unit vector (float32, as `vector` stores it). */
  vectors: Float32Array;
  queries: SyntheticQuery[];
  /** The parameters, for the report. */
  shape: {
    topics: number;
    superTopics: number;
    vocabulary: number;
    zipfExponent: number;
    lowRank: number;
    meanWordsPerChunk: number;
  };
}

export const DEFAULT_SEED = 20251201;

const VOCABULARY_SIZE = 50_000;
const ZIPF_EXPONENT = 1.0;
const TOPIC_WORDS = 300;
const DOCUMENT_KEYWORDS = 10;
const LOW_RANK = 32;
const CHUNKS_PER_TOPIC = 300;

/**
 * Vector mixture weights (each term a unit vector before the sum, the sum then normalised):
 * a direction every embedding shares (real embedding spaces are anisotropic), the document's centre,
 * a low-rank "style" component shared by the whole corpus, and isotropic noise.
 * Document centres sit around topic centroids, which sit around super-topic centroids.
 */
const W_GLOBAL = 0.3;
const W_DOCUMENT = 0.85;
const W_LOW_RANK = 0.45;
const W_NOISE = 0.45;
const W_QUERY_NOISE = 0.6;
const TOPIC_FROM_SUPER = 0.6;
const DOCUMENT_FROM_TOPIC = 0.8;

export function chunkUuid(index: number): string {
  return `c0ffee00-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
}

export function documentUuid(index: number): string {
  return `d0c00000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
}

/** The chunk index back from a chunk id made by chunkUuid. */
export function chunkIndexOf(id: string): number {
  return parseInt(id.slice(24), 16);
}

/**
 * A synthetic but realistically shaped corpus, deterministic for a seed:
 * - text: words drawn from a Zipfian vocabulary (real English stop and common words at the head,
 *   made-up words in the tail), mixed with per-topic and per-document words, so BM25 postings have
 *   the long-head/long-tail shape of real text and queries match topical chunks;
 * - vectors: a hierarchical mixture of Gaussians on the unit sphere (super-topics → topics →
 *   documents → chunks) plus a shared low-rank component and noise, so each query has a handful of
 *   near neighbours (its document) inside a crowd of similar ones (its topic) — HNSW must work for
 *   recall, unlike with well separated clusters or uniform noise;
 * - queries: new points near a document's centre (not copies of chunks), with a few topical words.
 */
export function generateSyntheticCorpus(options: SyntheticCorpusOptions): SyntheticCorpus {
  const { chunks, dimension, queries } = options;
  if (!Number.isInteger(chunks) || chunks < 1) throw new RangeError(`chunks must be ≥ 1, got ${chunks}`);
  if (!Number.isInteger(dimension) || dimension < 2) throw new RangeError(`dimension must be ≥ 2`);
  const random = new SeededRandom(options.seed ?? DEFAULT_SEED);

  const vocabulary = buildVocabulary(VOCABULARY_SIZE, random);
  const globalZipf = new ZipfSampler(vocabulary.length, ZIPF_EXPONENT);
  const topicZipf = new ZipfSampler(TOPIC_WORDS, 0.9);
  const topics = Math.max(4, Math.round(chunks / CHUNKS_PER_TOPIC));
  const superTopics = Math.max(2, Math.round(Math.sqrt(topics)));
  const topicSizes = new ZipfSampler(topics, 0.6);

  // Topic words come from below the head, so a topic's words are specific but not unique to it.
  const topicWords = Array.from({ length: topics }, () =>
    Array.from({ length: TOPIC_WORDS }, () => vocabulary[300 + random.int(vocabulary.length - 300)]),
  );
  const globalDirection = random.unitVector(dimension);
  const lowRankBasis = Array.from({ length: LOW_RANK }, () => random.unitVector(dimension));
  const superCentroids = Array.from({ length: superTopics }, () => random.unitVector(dimension));
  const topicCentroids = Array.from({ length: topics }, (_, t) =>
    mix(dimension, [
      [TOPIC_FROM_SUPER, superCentroids[t % superTopics]],
      [Math.sqrt(1 - TOPIC_FROM_SUPER ** 2), random.unitVector(dimension)],
    ]),
  );

  const documents: SyntheticDocument[] = [];
  const documentCentres: Float64Array[] = [];
  const documentKeywords: string[][] = [];
  const chunkDocument = new Int32Array(chunks);
  const chunkOrdinal = new Int32Array(chunks);
  const spanStart = new Int32Array(chunks);
  const spanEnd = new Int32Array(chunks);
  const texts: string[] = new Array<string>(chunks);
  const vectors = new Float32Array(chunks * dimension);
  const scratch = new Float64Array(dimension);
  let totalWords = 0;

  for (let chunk = 0; chunk < chunks;) {
    const d = documents.length;
    const topic = topicSizes.sample(random);
    const count = Math.min(chunks - chunk, 1 + Math.min(29, Math.floor(-Math.log(1 - random.next()) * 7)));
    const keywords = Array.from(
      { length: DOCUMENT_KEYWORDS },
      () => vocabulary[1000 + random.int(vocabulary.length - 1000)],
    );
    const title = Array.from({ length: random.between(3, 5) }, () =>
      capitalize(topicWords[topic][topicZipf.sample(random)]),
    ).join(' ');
    const centre = mix(dimension, [
      [DOCUMENT_FROM_TOPIC, topicCentroids[topic]],
      [Math.sqrt(1 - DOCUMENT_FROM_TOPIC ** 2), random.unitVector(dimension)],
    ]);
    documentCentres.push(centre);
    documentKeywords.push(keywords);
    let offset = 0;
    for (let ordinal = 0; ordinal < count; ordinal++, chunk++) {
      const words = random.between(90, 210);
      totalWords += words;
      const text = sentenceText(words, random, () => {
        const r = random.next();
        if (r < 0.62) return vocabulary[globalZipf.sample(random)];
        if (r < 0.92) return topicWords[topic][topicZipf.sample(random)];
        return keywords[random.int(keywords.length)];
      });
      texts[chunk] = text;
      chunkDocument[chunk] = d;
      chunkOrdinal[chunk] = ordinal;
      spanStart[chunk] = offset;
      spanEnd[chunk] = offset + text.length;
      offset += text.length + 2;
      pointNear(centre, W_NOISE, random, globalDirection, lowRankBasis, scratch);
      vectors.set(scratch, chunk * dimension);
    }
    documents.push({
      id: documentUuid(d),
      title,
      topic,
      firstChunk: chunk - count,
      chunkCount: count,
      byteSize: Math.max(0, offset - 2),
    });
  }

  const querySet: SyntheticQuery[] = [];
  for (let q = 0; q < queries; q++) {
    // Documents in proportion to their chunks, as questions follow content.
    const d = chunkDocument[random.int(chunks)];
    const topic = documents[d].topic;
    pointNear(documentCentres[d], W_QUERY_NOISE, random, globalDirection, lowRankBasis, scratch);
    const words = Array.from({ length: random.between(3, 7) }, () => {
      const r = random.next();
      if (r < 0.55) return topicWords[topic][topicZipf.sample(random)];
      if (r < 0.85) return documentKeywords[d][random.int(DOCUMENT_KEYWORDS)];
      return vocabulary[globalZipf.sample(random)];
    });
    querySet.push({ text: words.join(' '), vector: Float32Array.from(scratch), document: d });
  }

  return {
    dimension,
    documents,
    chunkIds: Array.from({ length: chunks }, (_, i) => chunkUuid(i)),
    chunkDocument,
    chunkOrdinal,
    texts,
    spanStart,
    spanEnd,
    vectors,
    queries: querySet,
    shape: {
      topics,
      superTopics,
      vocabulary: vocabulary.length,
      zipfExponent: ZIPF_EXPONENT,
      lowRank: LOW_RANK,
      meanWordsPerChunk: Math.round(totalWords / chunks),
    },
  };
}

/** The text that is indexed for a chunk, as the app builds it: the title, then the chunk. */
export function indexTextOf(corpus: SyntheticCorpus, chunk: number): string {
  return `${corpus.documents[corpus.chunkDocument[chunk]].title}\n${corpus.texts[chunk]}`;
}

/** One vector of the corpus (a view, not a copy). */
export function vectorOf(corpus: SyntheticCorpus, chunk: number): Float32Array {
  return corpus.vectors.subarray(chunk * corpus.dimension, (chunk + 1) * corpus.dimension);
}

function pointNear(
  centre: Float64Array,
  noise: number,
  random: SeededRandom,
  globalDirection: Float64Array,
  lowRankBasis: Float64Array[],
  out: Float64Array,
): void {
  const dimension = out.length;
  out.fill(0);
  // Low-rank part: a random combination of the shared basis, normalised.
  for (const basis of lowRankBasis) {
    const z = random.gaussian();
    for (let i = 0; i < dimension; i++) out[i] += z * basis[i];
  }
  normalizeInPlace(out);
  const noiseScale = noise / Math.sqrt(dimension);
  for (let i = 0; i < dimension; i++) {
    out[i] =
      W_GLOBAL * globalDirection[i] +
      W_DOCUMENT * centre[i] +
      W_LOW_RANK * out[i] +
      noiseScale * random.gaussian();
  }
  normalizeInPlace(out);
}

function mix(dimension: number, parts: [number, Float64Array][]): Float64Array {
  const out = new Float64Array(dimension);
  for (const [weight, vector] of parts) for (let i = 0; i < dimension; i++) out[i] += weight * vector[i];
  return normalizeInPlace(out);
}

function sentenceText(words: number, random: SeededRandom, word: () => string): string {
  const parts: string[] = [];
  let sentence = 0;
  let length = random.between(8, 20);
  for (let w = 0; w < words; w++) {
    const next = word();
    parts.push(sentence === 0 ? capitalize(next) : next);
    sentence++;
    if (sentence === length || w === words - 1) {
      parts[parts.length - 1] += '.';
      sentence = 0;
      length = random.between(8, 20);
    } else if (random.next() < 0.05) {
      parts[parts.length - 1] += ',';
    }
  }
  return parts.join(' ');
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

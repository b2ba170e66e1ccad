import type { EmbeddingProvider } from '@lumina/rag';
import { l2Normalize } from '@lumina/rag';
import OpenAI from 'openai';

export interface OpenAiEmbedderOptions {
  baseURL: string;
  apiKey?: string;
  model: string;
  dimensions: number;
  timeoutMs: number;
  batchSize: number;
  maxInputChars?: number;
}

/** Any OpenAI-compatible /v1/embeddings endpoint (OpenAI, Ollama, vLLM, TEI) through the openai client. */
export class OpenAiEmbedder implements EmbeddingProvider {
  readonly modelId: string;
  readonly dimension: number;
  readonly maxInputChars: number;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiEmbedderOptions) {
    this.modelId = `openai:${options.model}`;
    this.dimension = options.dimensions;
    this.maxInputChars = options.maxInputChars ?? 8000;
    this.client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey || 'not-needed',
      timeout: options.timeoutMs,
      maxRetries: 2,
    });
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let i = 0; i < texts.length; i += this.options.batchSize) {
      const input = texts
        .slice(i, i + this.options.batchSize)
        .map((text) => text.slice(0, this.maxInputChars));
      const response = await this.client.embeddings.create(
        { model: this.options.model, input, encoding_format: 'float' },
        { signal },
      );
      const ordered = [...response.data].sort((a, b) => a.index - b.index);
      if (ordered.length !== input.length) {
        throw new Error(
          `the embedding endpoint returned ${ordered.length} vectors for ${input.length} texts`,
        );
      }
      for (const item of ordered) {
        if (item.embedding.length !== this.dimension) {
          throw new Error(
            `the embedding endpoint returned ${item.embedding.length}-dimensional vectors; EMBEDDINGS_DIMENSIONS is ${this.dimension}`,
          );
        }
        vectors.push(l2Normalize(item.embedding));
      }
    }
    return vectors;
  }
}

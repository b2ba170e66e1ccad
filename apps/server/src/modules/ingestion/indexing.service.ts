import { textSearchConfig } from '@lumina/rag';
import type { ChunkingSettings, EmbeddingProvider, IndexableDocument, LanguageDetector } from '@lumina/rag';
import type { DataSource } from 'typeorm';
import { loadLanguageDetector } from '../../providers/eld-language-detector';
import { analyseDocument, decideLanguages } from './chunk-analysis';
import type { AnalysedChunk } from './chunk-analysis';
import { ChunkRepository } from './repositories/chunk.repository';

export interface IndexingProgress {
  stage: 'chunking' | 'embedding' | 'writing';
  done: number;
  total: number;
}

export interface IndexingOutcome {
  documents: number;
  chunks: number;
}

/**
 * Chunks, embeds and stores documents. The chunks of a batch of documents replace any earlier ones in
 * ONE transaction, so a retry after a crash leaves no duplicates; BM25 statistics follow through the
 * triggers in the same transaction. Used by the ingestion jobs and by the eval CLI alike.
 */
export class IndexingService {
  private readonly chunks: ChunkRepository;

  constructor(
    dataSource: DataSource,
    private readonly embedder: EmbeddingProvider | null,
    readonly chunking: ChunkingSettings,
    private readonly embedBatchSize = 64,
    /** Names each document's language unless the upload gave one (default: the app's detector). */
    private languageDetector: LanguageDetector | null = null,
    /** DEFAULT_LANGUAGE: the language of every document whose upload names none (no detection). */
    readonly defaultLanguage: string | null = null,
  ) {
    this.chunks = new ChunkRepository(dataSource.manager);
  }

  /** How many documents hold each language (the corpus's evidence for detection, and for reports). */
  languageCounts(): Promise<Record<string, number>> {
    return this.chunks.languageCounts();
  }

  get embeddingModel(): string | null {
    return this.embedder?.modelId ?? null;
  }

  /**
   * `onProgress` hears 'chunking' once, 'embedding' before the first batch (done 0) and after each one,
   * and 'writing' after the commit; it is awaited, so it can stop the work by throwing. `signal` is
   * passed to the embedder and checked between batches.
   */
  async indexDocuments(
    documents: IndexableDocument[],
    onProgress?: (progress: IndexingProgress) => void | Promise<void>,
    options: { signal?: AbortSignal } = {},
  ): Promise<IndexingOutcome> {
    this.languageDetector ??= await loadLanguageDetector();
    const languages = decideLanguages(documents, this.languageDetector, {
      defaultLanguage: this.defaultLanguage,
      corpusCounts: await this.chunks.languageCounts(),
    });
    const analysed = documents.map((document, i) => ({
      documentId: document.documentId,
      ...analyseDocument(document, this.chunking, languages[i]!.language),
    }));
    await onProgress?.({ stage: 'chunking', done: documents.length, total: documents.length });
    return this.indexChunks(
      analysed.map(({ documentId, language }) => ({ documentId, language })),
      analysed.flatMap((entry) => entry.chunks),
      onProgress,
      options,
    );
  }

  /**
   * Embeds and stores chunks analysed elsewhere (the ingestion jobs chunk on a worker thread): they
   * replace every earlier chunk of the documents in one transaction, each document analysed with the
   * text-search configuration of its language. `onProgress` hears 'embedding' and 'writing'.
   */
  async indexChunks(
    documents: { documentId: string; language: string | null }[],
    chunks: AnalysedChunk[],
    onProgress?: (progress: IndexingProgress) => void | Promise<void>,
    options: { signal?: AbortSignal } = {},
  ): Promise<IndexingOutcome> {
    const available = await this.chunks.textSearchConfigs();
    const indexed = documents.map((d) => ({ ...d, textConfig: textSearchConfig(d.language, available) }));
    const vectors: (number[] | null)[] = [];
    if (this.embedder) {
      await onProgress?.({ stage: 'embedding', done: 0, total: chunks.length });
      for (let i = 0; i < chunks.length; i += this.embedBatchSize) {
        options.signal?.throwIfAborted();
        const batch = chunks.slice(i, i + this.embedBatchSize);
        vectors.push(
          ...(await this.embedder.embed(
            batch.map((chunk) => chunk.indexText),
            options.signal,
          )),
        );
        await onProgress?.({ stage: 'embedding', done: vectors.length, total: chunks.length });
      }
    } else {
      vectors.push(...chunks.map(() => null));
    }

    options.signal?.throwIfAborted();
    await this.chunks.replaceChunks(indexed, chunks, vectors, this.embeddingModel);
    await onProgress?.({ stage: 'writing', done: chunks.length, total: chunks.length });
    return { documents: documents.length, chunks: chunks.length };
  }
}

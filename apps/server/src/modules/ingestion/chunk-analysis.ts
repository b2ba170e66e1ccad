import { chunkDocument, chunkingForLanguage, segmentWords } from '@lumina/rag';
import type { Chunk, ChunkingSettings, IndexableDocument, LanguageDetector } from '@lumina/rag';

/** A chunk with what its lexical index is built from besides the text-search configuration. */
export interface AnalysedChunk extends Chunk {
  /** The indexed text with the words of scripts without spaces separated; null when that changes nothing. */
  lexicalText: string | null;
}

/**
 * Name a document's language (the upload's, else detected) and cut it into chunks sized for that
 * language, each with its segmented lexical text. Pure: it runs on the document work threads and in the
 * eval CLI alike.
 */
export function analyseDocument(
  document: IndexableDocument,
  chunking: ChunkingSettings,
  detector: LanguageDetector,
): { language: string | null; chunks: AnalysedChunk[] } {
  const language = document.language ?? detector.detect(`${document.title}\n${document.text}`);
  const chunks = chunkDocument(document, chunkingForLanguage(chunking, language));
  return {
    language,
    chunks: chunks.map((chunk) => {
      const lexical = segmentWords(chunk.indexText);
      return { ...chunk, lexicalText: lexical === chunk.indexText ? null : lexical };
    }),
  };
}

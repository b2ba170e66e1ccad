import { chunkDocument, chunkingForLanguage, decideDocumentLanguages, lexicalText } from '@lumina/rag';
import type {
  Chunk,
  ChunkingSettings,
  IndexableDocument,
  LanguageContext,
  LanguageDecision,
  LanguageDetector,
} from '@lumina/rag';

/** A chunk with what its lexical index is built from besides the text-search configuration. */
export interface AnalysedChunk extends Chunk {
  /** The indexed text in NFC with the words of scripts without spaces separated; null when that changes nothing. */
  lexicalText: string | null;
}

/**
 * The languages of documents about to be indexed (libs/rag decideDocumentLanguages): the upload's, else
 * DEFAULT_LANGUAGE, else detected from the title and text and weighed against the corpus's languages.
 */
export function decideLanguages(
  documents: readonly IndexableDocument[],
  detector: LanguageDetector,
  context: LanguageContext,
): LanguageDecision[] {
  return decideDocumentLanguages(
    documents.map((document) => ({
      text: `${document.title}\n${document.text}`,
      upload: document.language ?? null,
    })),
    detector,
    context,
  );
}

/**
 * Cut a document into chunks sized for its (decided) language, each with its segmented lexical text.
 * Pure: it runs on the document work threads and in the eval CLI alike.
 */
export function analyseDocument(
  document: IndexableDocument,
  chunking: ChunkingSettings,
  language: string | null,
): { language: string | null; chunks: AnalysedChunk[] } {
  const chunks = chunkDocument(document, chunkingForLanguage(chunking, language));
  return {
    language,
    chunks: chunks.map((chunk) => {
      const lexical = lexicalText(chunk.indexText);
      return { ...chunk, lexicalText: lexical === chunk.indexText ? null : lexical };
    }),
  };
}

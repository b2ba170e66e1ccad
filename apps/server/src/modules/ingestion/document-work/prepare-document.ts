import type { ChunkingSettings, LanguageDetector, TextFormat } from '@lumina/rag';
import { loadLanguageDetector } from '../../../providers/eld-language-detector';
import { analyseDocument, decideLanguages } from '../chunk-analysis';
import type { AnalysedChunk } from '../chunk-analysis';
import { UnreadableDocumentError } from '../errors/unreadable-document.error';
import { ParserRegistry } from '../parsers/parser-registry';
import type { SourceFormat } from '../uploads/supported-formats';

/** One stored file to turn into chunks: everything the work needs, nothing it must look up. */
export interface PrepareRequest {
  documentId: string;
  format: SourceFormat;
  bytes: Uint8Array;
  /** The uploaded file name (or the title), for messages. */
  name: string;
  /** The document's title now; a title the file carries replaces it when `titleFromFile` is set. */
  title: string;
  titleFromFile: boolean;
  chunking: ChunkingSettings;
  /** The language the upload named (ISO 639-1); decided from the evidence below when null. */
  language: string | null;
  /** DEFAULT_LANGUAGE, if the installation sets one: then nothing is detected. */
  defaultLanguage: string | null;
  /** How many documents of the corpus hold each language (the prevailing one wins close calls). */
  corpusLanguages: Record<string, number>;
}

export interface PreparedDocument {
  title: string;
  format: TextFormat;
  /** The document's language: the upload's, or detected from its text (null: not recognised). */
  language: string | null;
  chunks: AnalysedChunk[];
}

let parsers: ParserRegistry | undefined;
let detector: LanguageDetector | undefined;

/**
 * Parse and chunk one document: the CPU-heavy, input-controlled part of ingestion. It runs on a thread
 * of the document work pool, never on the API's event loop (DocumentWorkPool). Throws
 * UnreadableDocumentError for a file that can never be indexed.
 */
export async function prepareDocument(request: PrepareRequest): Promise<PreparedDocument> {
  parsers ??= new ParserRegistry();
  const { name } = request;
  const parsed = await parsers.parse(request.format, Buffer.from(request.bytes), name);
  if (!parsed.text.trim()) throw new UnreadableDocumentError(`"${name}" contains no text to index.`);
  // A title the file carries (HTML <title>, PDF metadata, DOCX core properties) beats the file name.
  const title = parsed.title && request.titleFromFile ? parsed.title.slice(0, 300) : request.title;
  detector ??= await loadLanguageDetector();
  const document = {
    documentId: request.documentId,
    title,
    text: parsed.text,
    format: parsed.format,
    language: request.language,
    ...(parsed.pageStarts ? { pageStarts: parsed.pageStarts } : {}),
    ...(parsed.headingAnchors ? { headingAnchors: parsed.headingAnchors } : {}),
  };
  const [decided] = decideLanguages([document], detector, {
    defaultLanguage: request.defaultLanguage,
    corpusCounts: request.corpusLanguages,
  });
  const { language, chunks } = analyseDocument(document, request.chunking, decided!.language);
  return { title, format: parsed.format, language, chunks };
}
